import type { AnyOperation } from '../define.ts';
import { createTransaction } from './create.ts';
import { getTransaction } from './get.ts';
import { createImport } from './imports-create.ts';
import { getImport } from './imports-get.ts';
import { listImports } from './imports-list.ts';
import { listTransactions } from './list.ts';
import { updateTransaction } from './update.ts';

export const transactionOperations = [
  listTransactions,
  getTransaction,
  createTransaction,
  updateTransaction,
  createImport,
  getImport,
  listImports,
] as const satisfies readonly AnyOperation[];
