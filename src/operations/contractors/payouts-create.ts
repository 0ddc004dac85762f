import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey } from '../../contract/formats.ts';
import { Payout } from '../../contractors/payout-wire.ts';
import { createPayout, withLines } from '../../contractors/payouts.ts';
import { defineOperation } from '../define.ts';
import { requireContractor } from './store.ts';

export const createPayoutOperation = defineOperation({
  name: 'contractors.payouts.create',
  summary: 'Create a payout from approved hours and fixed amounts',
  description:
    "The pay period ends on `periodEnd` and starts by the role's pay cadence (weekly: 7 days, biweekly: 14 days, semimonthly: from the 1st or the 16th, monthly: from the 1st). Every approved hours record of the period not yet in a payout is included, in the role's currency, plus `fixedAmounts`. Nothing to pay: 409 `payout_empty`; no role: 409 `rate_missing`. The payout starts `unpaid`; the hours stay approved until it is marked paid.",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  input: Type.Object(
    {
      contractorId: Id('Contractor id.'),
      periodEnd: DateString('Last day of the pay period (YYYY-MM-DD).'),
      fixedAmounts: Type.Optional(
        Type.Array(
          Type.Object(
            {
              description: Type.String({
                minLength: 1,
                maxLength: 200,
                description: 'What the amount pays, 1-200 characters.',
              }),
              amountMinor: Type.String({
                pattern: '^[1-9][0-9]{0,14}$',
                description: 'Positive amount, decimal string of minor units (at most 15 digits).',
              }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 20, description: 'Fixed amounts (a flat fee, an expense), 0-20 items.' },
        ),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Payout,
  example: {
    contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    periodEnd: '2026-09-30',
    fixedAmounts: [{ description: 'Monthly retainer', amountMinor: '50000' }],
    idempotencyKey: 'payout-create-0001',
  },
  async run({ ctx, input }) {
    await requireContractor(ctx, input.contractorId, 'contractorId');
    const row = await createPayout(ctx, input.contractorId, {
      periodEnd: input.periodEnd,
      fixedAmounts: (input.fixedAmounts ?? []).map((f) => ({
        description: f.description,
        amountMinor: BigInt(f.amountMinor),
      })),
    });
    const [payout] = await withLines(ctx.db, ctx.organizationId, [row]);
    if (!payout) throw new Error('the payout just written is missing');
    return payout;
  },
});
