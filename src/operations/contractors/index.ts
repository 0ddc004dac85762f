import type { AnyOperation } from '../define.ts';
import { createContractor } from './create.ts';
import { getContractor } from './get.ts';
import { listContractors } from './list.ts';

export const contractorOperations: readonly AnyOperation[] = [
  listContractors,
  getContractor,
  createContractor,
];
