import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { DateString, Id, Timestamp } from '../contract/formats.ts';
import type { ContractorPaymentsTable, ContractorPayoutLinesTable } from '../db/tables/contractor-work.ts';
import { asIso, asMinor } from '../db/values.ts';

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PayoutLine = Type.Object(
  {
    kind: Type.Union([Type.Literal('hours'), Type.Literal('fixed')], {
      description: '`hours` (approved hours) or `fixed` (a fixed amount).',
    }),
    hours_id: Nullable('The hours paid by this line, or null for a fixed amount.'),
    description: Type.String({ description: 'What the line pays.' }),
    amount_minor: Type.String({ description: 'Amount, decimal string of minor units.' }),
  },
  { additionalProperties: false },
);

export const Payout = Type.Object(
  {
    id: Id('Payout id.'),
    contractor_id: Id('Contractor id.'),
    status: Type.Union([Type.Literal('unpaid'), Type.Literal('paid')], {
      description: 'unpaid -> paid (contractors.payouts.markPaid).',
    }),
    amount_minor: Type.String({ description: 'Total of the lines, decimal string of minor units.' }),
    currency: Type.String({ description: "The contractor's currency (their role's), ISO 4217." }),
    pay_cadence: Type.String({ description: "The role's pay cadence the period follows." }),
    period_start: DateString('First day of the pay period.'),
    period_end: DateString('Last day of the pay period.'),
    paid_on: Type.Union([DateString('Payment date.'), Type.Null()], {
      description: 'Payment date, or null while unpaid.',
    }),
    reference: Nullable('Payment reference (bank transfer id, cheque number), or null while unpaid.'),
    lines: Type.Array(PayoutLine, { description: 'Hours lines first (by work date), then fixed amounts.' }),
    revision: Type.Integer({ minimum: 1, description: 'Revision; send it as expectedRevision.' }),
    created_at: Timestamp('When the payout was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'ContractorPayout', additionalProperties: false },
);
export type Payout = Static<typeof Payout>;

export type PayoutRow = Selectable<ContractorPaymentsTable>;

export function toPayout(row: PayoutRow, lines: readonly Selectable<ContractorPayoutLinesTable>[]): Payout {
  return {
    id: row.id,
    contractor_id: row.contractor_id,
    status: row.status,
    amount_minor: asMinor(row.amount_minor).toString(),
    currency: row.currency,
    pay_cadence: row.pay_cadence,
    period_start: row.period_start,
    period_end: row.period_end,
    paid_on: row.paid_on,
    reference: row.reference,
    lines: lines.map((line) => ({
      kind: line.kind,
      hours_id: line.hours_id,
      description: line.description,
      amount_minor: asMinor(line.amount_minor).toString(),
    })),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
