import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { attachReceipt } from '../../receipts/processing/attach.ts';
import { defineOperation } from '../define.ts';
import { MatchResult } from './schema.ts';

export const attachMatch = defineOperation({
  name: 'matching.attach',
  summary: 'Attach a receipt to a transaction by hand',
  description:
    'A manual link, whether or not it was suggested: same effect as confirming a suggestion (the transaction becomes matched and leaves attention.mine; an alias is learned). The receipt must be ready or needs_review and unmatched; the transaction unmatched.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      receiptId: Id('The receipt (inbox item).'),
      expectedReceiptRevision: Revision('The revision of the receipt last read.'),
      transactionId: Id('The transaction.'),
      expectedTransactionRevision: Revision('The revision of the transaction last read.'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MatchResult,
  example: {
    receiptId: '00000000-0000-0000-0000-000000000000',
    expectedReceiptRevision: 2,
    transactionId: '00000000-0000-0000-0000-000000000001',
    expectedTransactionRevision: 1,
  },
  async run({ ctx, input }) {
    const done = await attachReceipt(
      ctx,
      { receiptId: input.receiptId, transactionId: input.transactionId },
      'manual',
      {
        receiptRevision: input.expectedReceiptRevision,
        transactionRevision: input.expectedTransactionRevision,
      },
    );
    return {
      receipt_id: input.receiptId,
      transaction_id: input.transactionId,
      entry_id: done.entryId,
      receipt_revision: done.receiptRevision,
      transaction_revision: done.transactionRevision,
    };
  },
});
