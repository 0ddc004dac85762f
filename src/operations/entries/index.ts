import type { AnyOperation } from '../define.ts';
import { exportEntries } from './export.ts';
import { downloadExport } from './exports-download.ts';
import { getExport } from './exports-get.ts';
import { getEntry } from './get.ts';
import { listEntries } from './list.ts';
import { updateEntry } from './update.ts';

export const entryOperations = [
  listEntries,
  getEntry,
  updateEntry,
  exportEntries,
  getExport,
  downloadExport,
] as const satisfies readonly AnyOperation[];
