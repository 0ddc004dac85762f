import type { AnyOperation } from '../define.ts';
import { archiveAccount } from './archive.ts';
import { createAccount } from './create.ts';
import { getAccount } from './get.ts';
import { listAccounts } from './list.ts';
import { updateAccount } from './update.ts';

export const accountOperations = [
  listAccounts,
  getAccount,
  createAccount,
  updateAccount,
  archiveAccount,
] as const satisfies readonly AnyOperation[];
