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
const DateValue = Type.String({ format: 'date' });
const TimestampValue = Type.String({ format: 'date-time' });
const MinorValue = Type.String({ pattern: '^(0|[1-9][0-9]{0,17})$' });

export const ScheduleLine = Type.Object(
  {
    description: Type.String(),
    quantity: Type.String(),
    unit_amount_minor: MinorValue,
    tax_rate: Nullable(Type.String()),
  },
  { title: 'ScheduleLine', additionalProperties: false },
);

export const ScheduleCadence = Type.Object(
  {
    kind: Type.String({ description: 'weekly, monthly, quarterly or yearly.' }),
    interval_weeks: Nullable(Type.Integer()),
    day_of_month: Nullable(Type.Union([Type.Integer(), Type.Literal('last')])),
    interval_months: Nullable(Type.Integer()),
  },
  { title: 'ScheduleCadence', additionalProperties: false },
);

export const ScheduleEndRecord = Type.Object(
  {
    kind: Type.String({ description: 'never, on_date or after_count.' }),
    date: Nullable(DateValue),
    count: Nullable(Type.Integer()),
  },
  { title: 'ScheduleEnd', additionalProperties: false },
);

export const Installment = Type.Object(
  {
    id: Id('Installment id.'),
    sequence: Type.Integer({ description: '1-based position in the plan.' }),
    due_date: DateValue,
    amount_minor: MinorValue,
    status: Type.String({
      description:
        'open (not yet due), overdue (due date passed, unpaid) or paid (payments on the invoice reached this installment).',
    }),
    reminded_at: Nullable(TimestampValue),
    paid_at: Nullable(TimestampValue, 'When the worker saw it paid; the status is exact at once.'),
  },
  { title: 'Installment', additionalProperties: false },
);
export type Installment = Static<typeof Installment>;

export const InvoiceSchedule = Type.Object(
  {
    id: Id('Schedule id (recurring invoice or payment plan).'),
    kind: Type.String({ description: 'recurring or payment_plan.' }),
    status: Type.String({ description: 'active, paused, cancelled or completed.' }),
    name: Type.String(),
    party_id: Id('The invoiced party.'),
    currency: Type.String(),
    amount_minor: Nullable(
      MinorValue,
      'Recurring: total of each invoice the template makes. Payment plan: the balance split into installments.',
    ),
    lines: Nullable(Type.Array(ScheduleLine), 'Recurring only: the template lines.'),
    payment_terms_days: Nullable(Type.Integer(), 'Recurring only: due date = issue date + this many days.'),
    notes: Nullable(Type.String()),
    cadence: Nullable(ScheduleCadence, 'Recurring only.'),
    start_date: DateValue,
    end: ScheduleEndRecord,
    auto_send: Type.Boolean({
      description: 'Recurring: invoices are sent at once (true) or left as drafts.',
    }),
    invoice_id: Nullable(Id('Payment plans: the invoice whose balance is split.')),
    time_zone: Type.String({ description: 'IANA zone whose calendar decides run and due dates.' }),
    next_run_date: Nullable(DateValue, 'Recurring: the next invoice date while active or paused.'),
    last_run_date: Nullable(DateValue),
    occurrences_created: Type.Integer({ description: 'Invoices made so far (recurring).' }),
    installments: Nullable(Type.Array(Installment), 'Payment plans only.'),
    paused_at: Nullable(TimestampValue),
    cancelled_at: Nullable(TimestampValue),
    completed_at: Nullable(TimestampValue),
    revision: Type.Integer({ minimum: 1 }),
    created_at: TimestampValue,
    updated_at: TimestampValue,
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
