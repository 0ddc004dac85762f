import type { AnyOperation } from '../define.ts';
import { archiveMailItemOperation } from './items-archive.ts';
import { downloadMailItem } from './items-download.ts';
import { getMailItem } from './items-get.ts';
import { listMailItemsOperation } from './items-list.ts';
import { markMailItemReadOperation } from './items-mark-read.ts';
import { uploadMailItem } from './items-upload.ts';

/** Company mail: every operation needs a mail scope, which no accounting credential carries. */
export const mailOperations: readonly AnyOperation[] = [
  uploadMailItem,
  listMailItemsOperation,
  getMailItem,
  downloadMailItem,
  markMailItemReadOperation,
  archiveMailItemOperation,
];
