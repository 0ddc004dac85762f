import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { detachReceipt } from '../../receipts/processing/attach.ts';
import { defineOperation } from '../define.ts';

export const detachMatch = defineOperation({
  name: 'matching.detach',
  summary: 'Detach a receipt from its transaction',
  description:
    'Undoes a match: the transaction is unmatched again (back in attention.mine when it is a card transaction) and the receipt waits for a transaction again.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      receiptId: Id('The matched receipt.'),
      expectedRevision: Revision('The revision of the receipt last read.'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      receipt_id: Id('The receipt.'),
      transaction_id: Id('The transaction it was attached to.'),
      receipt_revision: Type.Integer({ minimum: 1, description: 'The receipt’s revision after the change.' }),
    },
    { additionalProperties: false },
  ),
  example: { receiptId: '00000000-0000-0000-0000-000000000000', expectedRevision: 3 },
  async run({ ctx, input }) {
    const done = await detachReceipt(ctx, input.receiptId, input.expectedRevision);
    return {
      receipt_id: input.receiptId,
      transaction_id: done.transactionId,
      receipt_revision: done.receiptRevision,
    };
  },
});
