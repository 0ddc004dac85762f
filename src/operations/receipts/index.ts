import type { AnyOperation } from '../define.ts';
import { getReceiptOriginal } from './originals-get.ts';
import { uploadReceipt } from './upload.ts';

export const receiptOperations = [
  uploadReceipt,
  getReceiptOriginal,
] as const satisfies readonly AnyOperation[];
