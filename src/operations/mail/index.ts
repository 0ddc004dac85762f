import type { AnyOperation } from '../define.ts';
import { getMailAddress } from './address-get.ts';
import { rotateMailAddress } from './address-rotate.ts';
import { archiveMailItemOperation } from './items-archive.ts';
import { downloadMailItem } from './items-download.ts';
import { forwardMailItemToInbox } from './items-forward-to-inbox.ts';
import { getMailItem } from './items-get.ts';
import { listMailItemsOperation } from './items-list.ts';
import { markMailItemReadOperation } from './items-mark-read.ts';
import { uploadMailItem } from './items-upload.ts';

/**
 * Company mail: every operation needs a mail scope, which no accounting credential carries
 * (forwardToInbox also needs accounting:write: it makes an accounting record).
 */
export const mailOperations = [
  uploadMailItem,
  listMailItemsOperation,
  getMailItem,
  downloadMailItem,
  markMailItemReadOperation,
  archiveMailItemOperation,
  forwardMailItemToInbox,
  getMailAddress,
  rotateMailAddress,
] as const satisfies readonly AnyOperation[];
