import type { Selectable } from 'kysely';
import { type Static, type TSchema, Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import type { InvoiceSchedulesTable, PaymentPlanInstallmentsTable } from '../../db/tables/schedules.ts';
import { asBool, asIso, asIsoOrNull, asJson, asMinor } from '../../db/values.ts';
import type { ScheduleEnd } from '../cadence.ts';
import { compareDates, type IsoDate } from '../calendar.ts';
import { formatMinor } from '../money.ts';
import { computeInvoiceTotals } from '../totals.ts';
import type { StoredCadence } from './wire.ts';

/** What a recurring schedule's template holds (stored as JSON, wire spelling of the inputs). */
export interface StoredTemplate {
  lines: { description: string; quantity: string; unitAmountMinor: string; taxRate?: string }[];
  paymentTermsDays: number;
  notes: string | null;
}

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const described = (description?: string) => (description === undefined ? {} : { description });
const DateValue = (description?: string) => Type.String({ format: 'date', ...described(description) });
const TimestampValue = (description?: string) =>
  Type.String({ format: 'date-time', ...described(description) });
const MinorValue = (description?: string) =>
  Type.String({ pattern: '^(0|[1-9][0-9]{0,17})$', ...described(description) });

export const ScheduleLine = Type.Object(
  {
    description: Type.String({ description: 'What is billed, 1-500 characters.' }),
    quantity: Type.String({
      description: 'Decimal string greater than 0, up to 9 integer and 4 fraction digits ("1", "1.5").',
    }),
    unit_amount_minor: MinorValue('Price of one unit, decimal string of minor units ("12500" is 125.00).'),
    tax_rate: Nullable(
      Type.String(),
      'Tax percentage 0-100 with up to 4 fraction digits ("13"); null when the line is untaxed.',
    ),
  },
  { title: 'ScheduleLine', additionalProperties: false },
);

export const ScheduleCadence = Type.Object(
  {
    kind: Type.String({ description: 'weekly, monthly, quarterly or yearly.' }),
    interval_weeks: Nullable(Type.Integer(), 'weekly: every N weeks, 1-52; null for the other kinds.'),
    day_of_month: Nullable(
      Type.Union([Type.Integer(), Type.Literal('last')]),
      'monthly, quarterly, yearly: day 1-31 (clamped to the last day of shorter months) or "last"; null for weekly.',
    ),
    interval_months: Nullable(
      Type.Integer(),
      'Months between invoices: 1-12 for monthly, 3 for quarterly, 12 for yearly; null for weekly.',
    ),
  },
  { title: 'ScheduleCadence', additionalProperties: false },
);

export const ScheduleEndRecord = Type.Object(
  {
    kind: Type.String({ description: 'never, on_date or after_count.' }),
    date: Nullable(DateValue(), 'on_date: the last date an invoice may be made (inclusive); null otherwise.'),
    count: Nullable(Type.Integer(), 'after_count: number of invoices to make, 1-10000; null otherwise.'),
  },
  { title: 'ScheduleEnd', additionalProperties: false },
);

export const Installment = Type.Object(
  {
    id: Id('Installment id.'),
    sequence: Type.Integer({ description: '1-based position in the plan.' }),
    due_date: DateValue("Day the installment is due (YYYY-MM-DD), in the plan's time zone."),
    amount_minor: MinorValue('Amount of the installment, decimal string of minor units of the currency.'),
    status: Type.String({
      description:
        'open (not yet due), overdue (due date passed, unpaid) or paid (payments on the invoice reached this installment).',
    }),
    reminded_at: Nullable(
      TimestampValue(),
      'When the due-soon reminder was sent (ISO 8601, UTC); null until then.',
    ),
    paid_at: Nullable(TimestampValue(), 'When the worker saw it paid; the status is exact at once.'),
  },
  { title: 'Installment', additionalProperties: false },
);
export type Installment = Static<typeof Installment>;

export const InvoiceSchedule = Type.Object(
  {
    id: Id('Schedule id (recurring invoice or payment plan).'),
    kind: Type.String({ description: 'recurring or payment_plan.' }),
    status: Type.String({ description: 'active, paused, cancelled or completed.' }),
    name: Type.String({
      description:
        'Name, 1-200 characters; by default "Recurring invoice for <party>" or "Payment plan for invoice <number>".',
    }),
    party_id: Id('The invoiced party.'),
    currency: Type.String({ description: 'Uppercase ISO 4217 code of the invoices and installments.' }),
    amount_minor: Nullable(
      MinorValue(),
      'Recurring: total of each invoice the template makes. Payment plan: the balance split into installments.',
    ),
    lines: Nullable(Type.Array(ScheduleLine), 'Recurring only: the template lines.'),
    payment_terms_days: Nullable(Type.Integer(), 'Recurring only: due date = issue date + this many days.'),
    notes: Nullable(
      Type.String(),
      'Recurring only: notes printed on each invoice; null when none (and for plans).',
    ),
    cadence: Nullable(ScheduleCadence, 'Recurring only.'),
    start_date: DateValue(
      "Recurring: the date the cadence starts from (YYYY-MM-DD). Payment plan: the first installment's due date.",
    ),
    end: ScheduleEndRecord,
    auto_send: Type.Boolean({
      description: 'Recurring: invoices are sent at once (true) or left as drafts.',
    }),
    invoice_id: Nullable(
      Id('Payment plans: the invoice whose balance is split.'),
      'Payment plans: the invoice whose balance is split; null for recurring schedules.',
    ),
    time_zone: Type.String({ description: 'IANA zone whose calendar decides run and due dates.' }),
    next_run_date: Nullable(DateValue(), 'Recurring: the next invoice date while active or paused.'),
    last_run_date: Nullable(
      DateValue(),
      'Recurring: the slot date (YYYY-MM-DD) of the last run, whether it made an invoice, failed or was skipped; null before the first run and for payment plans.',
    ),
    occurrences_created: Type.Integer({ description: 'Invoices made so far (recurring).' }),
    installments: Nullable(Type.Array(Installment), 'Payment plans only.'),
    paused_at: Nullable(
      TimestampValue(),
      'When it was paused (ISO 8601, UTC); null when not paused (cleared on resume, kept if cancelled while paused).',
    ),
    cancelled_at: Nullable(TimestampValue(), 'When it was cancelled (ISO 8601, UTC); null unless cancelled.'),
    completed_at: Nullable(
      TimestampValue(),
      "When it completed (ISO 8601, UTC): end condition reached, or the plan's invoice paid; null unless completed.",
    ),
    revision: Type.Integer({
      minimum: 1,
      description:
        "Revision: 1 at creation, +1 on every change, the worker's runs included; send it as expectedRevision.",
    }),
    created_at: TimestampValue('When it was created (ISO 8601, UTC).'),
    updated_at: TimestampValue('Last change (ISO 8601, UTC).'),
  },
  { title: 'InvoiceSchedule', additionalProperties: false },
);
export type InvoiceSchedule = Static<typeof InvoiceSchedule>;

export type ScheduleRow = Selectable<InvoiceSchedulesTable>;
export type InstallmentRow = Selectable<PaymentPlanInstallmentsTable>;

/** The stored template's invoice total, computed exactly as an invoice would be. */
export function templateTotal(template: StoredTemplate): bigint {
  return computeInvoiceTotals(
    template.lines.map((line) => ({
      quantity: line.quantity,
      unitAmountMinor: BigInt(line.unitAmountMinor),
      taxRate: line.taxRate,
    })),
  ).totalMinor;
}

/**
 * Paid is derived from the invoice's amount paid, so it is exact even before the worker notices.
 * A cancelled plan is frozen: its installments keep the state they had when it was cancelled
 * (paid only if recorded then, `paid_at`; dated as of the cancellation day), so payments made
 * afterwards, under a new plan or not, never change them.
 */
export function installmentStatus(row: InstallmentRow, paid: boolean, today: IsoDate): string {
  if (paid) return 'paid';
  return compareDates(row.due_date, today) < 0 ? 'overdue' : 'open';
}

/** `asOf`: the invoice's amount paid and the plan's today, or the day a cancelled plan was frozen. */
export function toInstallment(
  row: InstallmentRow,
  asOf: { amountPaidMinor: bigint; today: IsoDate } | { frozenOn: IsoDate },
): Installment {
  const status =
    'frozenOn' in asOf
      ? installmentStatus(row, row.paid_at !== null, asOf.frozenOn)
      : installmentStatus(row, asOf.amountPaidMinor >= asMinor(row.paid_threshold_minor), asOf.today);
  return {
    id: row.id,
    sequence: row.sequence,
    due_date: row.due_date,
    amount_minor: formatMinor(asMinor(row.amount_minor)),
    status,
    reminded_at: asIsoOrNull(row.reminded_at),
    paid_at: asIsoOrNull(row.paid_at),
  };
}

export function toSchedule(row: ScheduleRow, installments: Installment[] | null): InvoiceSchedule {
  const template = row.template === null ? null : asJson<StoredTemplate>(row.template);
  const cadence = row.cadence === null ? null : asJson<StoredCadence>(row.cadence);
  const end = asJson<ScheduleEnd>(row.end_condition);
  const amount =
    template !== null
      ? templateTotal(template)
      : installments === null
        ? null
        : installments.reduce((sum, item) => sum + BigInt(item.amount_minor), 0n);
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    name: row.name,
    party_id: row.party_id,
    currency: row.currency,
    amount_minor: amount === null ? null : formatMinor(amount),
    lines:
      template?.lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unit_amount_minor: line.unitAmountMinor,
        tax_rate: line.taxRate ?? null,
      })) ?? null,
    payment_terms_days: template?.paymentTermsDays ?? null,
    notes: template?.notes ?? null,
    cadence:
      cadence === null
        ? null
        : {
            kind: cadence.kind,
            interval_weeks: cadence.intervalWeeks,
            day_of_month: cadence.dayOfMonth,
            interval_months: cadence.intervalMonths,
          },
    start_date: row.start_date,
    end: {
      kind: end.kind,
      date: end.kind === 'on_date' ? end.date : null,
      count: end.kind === 'after_count' ? end.count : null,
    },
    auto_send: asBool(row.auto_send),
    invoice_id: row.invoice_id,
    time_zone: row.time_zone,
    next_run_date: row.next_run_date,
    last_run_date: row.last_run_date,
    occurrences_created: row.occurrences_created,
    installments,
    paused_at: asIsoOrNull(row.paused_at),
    cancelled_at: asIsoOrNull(row.cancelled_at),
    completed_at: asIsoOrNull(row.completed_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
