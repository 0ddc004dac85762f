import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { DateString, Id, Timestamp } from '../contract/formats.ts';
import type { ContractorHoursTable } from '../db/tables/contractor-work.ts';
import { asIso, asIsoOrNull, asMinor } from '../db/values.ts';
import { formatScaledDecimal } from '../lib/decimal.ts';

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const HoursStatus = Type.Union(
  [Type.Literal('submitted'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('paid')],
  { description: 'submitted -> approved -> paid, or submitted -> rejected.' },
);

/** A day's hours as returned on the wire (money as decimal strings of minor units). */
export const Hours = Type.Object(
  {
    id: Id('Hours id.'),
    contractor_id: Id('Contractor id.'),
    work_date: DateString('The day worked (YYYY-MM-DD).'),
    hours: Type.String({ description: 'Hours worked, decimal with two fraction digits ("7.25").' }),
    description: Type.String({ description: 'What was done, 1-500 characters.' }),
    rate_minor: Type.String({ description: "The role's hourly rate used, decimal string of minor units." }),
    amount_minor: Type.String({
      description: 'hours x rate, rounded half-even to a whole minor unit, decimal string.',
    }),
    currency: Type.String({ description: "The role's ISO 4217 currency." }),
    status: HoursStatus,
    rejection_reason: Nullable('Why the hours were rejected, or null.'),
    submitted_by: Type.Union([Type.Literal('member'), Type.Literal('contractor')], {
      description: 'Whether a finance member or the contractor (portal) submitted the hours.',
    }),
    decided_at: Type.Union([Timestamp('When approved or rejected.'), Type.Null()], {
      description: 'When the hours were approved or rejected, or null.',
    }),
    payout_id: Nullable('The payout that pays these hours, or null.'),
    revision: Type.Integer({ minimum: 1, description: 'Revision; send it as expectedRevision.' }),
    created_at: Timestamp('When the hours were submitted (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'ContractorHours', additionalProperties: false },
);
export type Hours = Static<typeof Hours>;

export type HoursRow = Selectable<ContractorHoursTable>;

export function toHours(row: HoursRow): Hours {
  return {
    id: row.id,
    contractor_id: row.contractor_id,
    work_date: row.work_date,
    hours: formatHundredths(asMinor(row.hours_hundredths)),
    description: row.description,
    rate_minor: asMinor(row.rate_minor).toString(),
    amount_minor: asMinor(row.amount_minor).toString(),
    currency: row.currency,
    status: row.status,
    rejection_reason: row.rejection_reason,
    submitted_by: row.submitted_by_type,
    decided_at: asIsoOrNull(row.decided_at),
    payout_id: row.payout_id,
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

/** 725n -> "7.25" (always two fraction digits, as the directory's pending hours). */
export function formatHundredths(hundredths: bigint): string {
  const text = formatScaledDecimal(hundredths, 2);
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
