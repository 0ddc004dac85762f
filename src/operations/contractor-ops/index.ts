import type { AnyOperation } from '../define.ts';
import { listDirectory } from './directory-list.ts';
import { assignJobRole } from './roles-assign.ts';
import { listJobRoles } from './roles-list.ts';
import { saveJobRole } from './roles-save.ts';

export const contractorOpsOperations = [
  listDirectory,
  listJobRoles,
  saveJobRole,
  assignJobRole,
] as const satisfies readonly AnyOperation[];
