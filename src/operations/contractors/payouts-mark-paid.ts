import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { Payout } from '../../contractors/payout-wire.ts';
import { loadPayout, markPayoutPaid, withLines } from '../../contractors/payouts.ts';
import { mailPayoutPaid } from '../../contractors/portal-mail.ts';
import { defineOperation } from '../define.ts';

export const markPayoutPaidOperation = defineOperation({
  name: 'contractors.payouts.markPaid',
  summary: 'Record that a payout was paid',
  description:
    "unpaid -> paid on `paidOn` with `reference`; its hours become `paid` and a ledger entry of the total posts on `paidOn` to 7000 Payroll and contractors (money out). Already paid: 409 `payout_already_paid`; stale revision: 409 `revision_conflict`. The tax year summary counts the payout in `paidOn`'s year. A contractor who may use the portal is e-mailed the amount, period, date and reference with a link to their payments.",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Payout id.'),
      expectedRevision: Revision(),
      paidOn: DateString('Date the money left (YYYY-MM-DD).'),
      reference: Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Payment reference (transfer id, cheque number), 1-200 characters.',
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Payout,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    paidOn: '2026-10-01',
    reference: 'WIRE-20261001-17',
    idempotencyKey: 'payout-paid-0001',
  },
  async run({ ctx, input }) {
    const row = await loadPayout(ctx.db, ctx.organizationId, input.id);
    const paid = await markPayoutPaid(ctx, row, input.expectedRevision, input);
    // In this unit: the mail is queued with the payment or not at all (decision 451).
    await mailPayoutPaid(ctx, ctx.services.config.publicUrl, paid);
    const [payout] = await withLines(ctx.db, ctx.organizationId, [paid]);
    if (!payout) throw new Error('the payout just written is missing');
    return payout;
  },
});
