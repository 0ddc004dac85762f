import type { AnyOperation } from '../define.ts';
import { uploadReceipt } from './upload.ts';

export const receiptOperations: readonly AnyOperation[] = [uploadReceipt];
