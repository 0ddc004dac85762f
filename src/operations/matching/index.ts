import type { AnyOperation } from '../define.ts';
import { confirmReceiptConsolidation } from './receipt-consolidation-confirm.ts';

export const matchingOperations: readonly AnyOperation[] = [confirmReceiptConsolidation];
