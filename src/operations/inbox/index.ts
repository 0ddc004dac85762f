import type { AnyOperation } from '../define.ts';
import { getInboxAddress } from './address-get.ts';
import { rotateInboxAddress } from './address-rotate.ts';
import { confirmInboxItem } from './confirm.ts';
import { getInboxItem } from './get.ts';
import { ignoreInboxItem } from './ignore.ts';
import { listInbox } from './list.ts';
import { restoreInboxItem } from './restore.ts';

export const inboxOperations = [
  listInbox,
  getInboxItem,
  ignoreInboxItem,
  restoreInboxItem,
  confirmInboxItem,
  getInboxAddress,
  rotateInboxAddress,
] as const satisfies readonly AnyOperation[];
