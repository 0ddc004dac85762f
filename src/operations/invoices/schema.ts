import { type Static, Type } from 'typebox';
import {
  DateString,
  Id,
  MINOR_PATTERN,
  POSITIVE_MINOR_PATTERN,
  SingleLineText,
  Timestamp,
} from '../../contract/formats.ts';
import type { IsoDate } from '../../invoicing/calendar.ts';
import type { InstallmentLimits } from '../../invoicing/installments.ts';
import type { Invoice as InvoiceModel } from '../../invoicing/invoices/index.ts';
import { MAX_LINES, PAYMENT_METHODS } from '../../invoicing/invoices/index.ts';
import { CadenceInput, EndInput, TemplateLines } from '../../invoicing/schedules/wire.ts';
import { isOverdue } from '../../invoicing/status.ts';

const Minor = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]*)$', description });
const DateOnly = (description: string) => Type.String({ format: 'date', description });
const Stamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const InvoiceStatus = Type.Union(
  [Type.Literal('draft'), Type.Literal('sent'), Type.Literal('paid'), Type.Literal('void')],
  { description: 'draft, sent, paid or void (docs/invoicing.md).' },
);

export const PaymentMethod = Type.Enum([...PAYMENT_METHODS], {
  description: `How the money arrived: ${PAYMENT_METHODS.join(', ')}.`,
});

export const InvoiceLineRecord = Type.Object(
  {
    position: Type.Integer({ minimum: 0, description: 'Order on the invoice, from 0.' }),
    description: Type.String({ description: 'What is billed, 1-500 characters, printed on the invoice.' }),
    quantity: Type.String({ description: 'Decimal string.' }),
    unit_amount_minor: Minor('Price of one unit, minor units.'),
    tax_rate: Type.Union([Type.String(), Type.Null()], { description: 'Percentage, or null when untaxed.' }),
    subtotal_minor: Minor('quantity x unit amount, rounded half-even.'),
    tax_minor: Minor('subtotal x rate, rounded half-even.'),
    total_minor: Minor('subtotal + tax.'),
  },
  { title: 'InvoiceLine', additionalProperties: false },
);

export const PaymentRecord = Type.Object(
  {
    id: Id('Payment id.'),
    amount_minor: Minor('Amount, minor units.'),
    paid_on: DateOnly('Day the money arrived.'),
    method: PaymentMethod,
    reference: Type.Union([Type.String(), Type.Null()], {
      description: 'Bank reference, cheque number or similar, or null when none was given.',
    }),
    created_at: Timestamp('When the payment was recorded (ISO 8601, UTC).'),
  },
  { title: 'InvoicePayment', additionalProperties: false },
);
export type PaymentRecord = Static<typeof PaymentRecord>;

const summaryFields = {
  id: Id('Invoice id.'),
  number: Type.Union([Type.String(), Type.Null()], { description: 'Assigned when sent; null for drafts.' }),
  status: InvoiceStatus,
  overdue: Type.Boolean({
    description: "Derived: sent, balance above 0 and due date before the organization's today.",
  }),
  party_id: Id('Party id.'),
  currency: Type.String({ description: 'Uppercase ISO 4217 code; amounts are in its minor units.' }),
  issue_date: DateOnly('Issue date.'),
  due_date: DateOnly('Due date.'),
  payment_terms_days: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Days from issue to due date (0-365) when the due date came from paymentTermsDays; null when a dueDate was given.',
  }),
  scheduled_send_date: Type.Union([DateOnly('Day the draft is sent automatically.'), Type.Null()], {
    description:
      "Day (YYYY-MM-DD, organization's time zone) the draft is sent automatically; null when not scheduled. Kept after sending.",
  }),
  subtotal_minor: Minor('Sum of line subtotals.'),
  tax_minor: Minor('Sum of line taxes.'),
  total_minor: Minor('subtotal + tax.'),
  amount_paid_minor: Minor('Sum of payments.'),
  balance_minor: Minor('total - amount paid.'),
  notes: Type.Union([Type.String(), Type.Null()], {
    description: 'Free text printed on the invoice (up to 2000 characters), or null.',
  }),
  schedule_id: Type.Union([Id('Recurring schedule that produced it.'), Type.Null()], {
    description: 'The recurring schedule that made this invoice, or null for invoices created directly.',
  }),
  sent_at: Stamp('When the invoice was sent (ISO 8601, UTC); null for drafts and invoices voided as drafts.'),
  paid_at: Stamp(
    'When payments reached the total, or when a zero-total invoice was sent (ISO 8601, UTC); null unless paid.',
  ),
  voided_at: Stamp('When the invoice was voided (ISO 8601, UTC); null unless void.'),
  void_reason: Type.Union([Type.String(), Type.Null()], {
    description:
      'The reason given to invoices.void (1-500 characters); null when not voided or voided without one.',
  }),
  revision: Type.Integer({
    minimum: 1,
    description:
      'Revision: 1 at creation, +1 on every change (payments included); send it as expectedRevision.',
  }),
  created_at: Timestamp('When the invoice was created (ISO 8601, UTC).'),
  updated_at: Timestamp('Last change (ISO 8601, UTC).'),
};

/** List items: the invoice without its lines and payments. */
export const InvoiceSummary = Type.Object(summaryFields, {
  title: 'InvoiceSummary',
  additionalProperties: false,
});
export type InvoiceSummary = Static<typeof InvoiceSummary>;

export const Invoice = Type.Object(
  {
    ...summaryFields,
    lines: Type.Array(InvoiceLineRecord, { description: 'The line items, in position order.' }),
    payments: Type.Array(PaymentRecord, {
      description: 'Payments recorded on the invoice, in the order they were recorded.',
    }),
  },
  { title: 'Invoice', additionalProperties: false },
);
export type Invoice = Static<typeof Invoice>;

export function toPaymentRecord(payment: InvoiceModel['payments'][number]): PaymentRecord {
  return {
    id: payment.id,
    amount_minor: payment.amountMinor.toString(),
    paid_on: payment.paidOn,
    method: payment.method,
    reference: payment.reference,
    created_at: payment.createdAt,
  };
}

export function toInvoiceSummary(invoice: InvoiceModel, today: IsoDate): InvoiceSummary {
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    overdue: isOverdue(invoice, today),
    party_id: invoice.partyId,
    currency: invoice.currency,
    issue_date: invoice.issueDate,
    due_date: invoice.dueDate,
    payment_terms_days: invoice.paymentTermsDays,
    scheduled_send_date: invoice.scheduledSendDate,
    subtotal_minor: invoice.subtotalMinor.toString(),
    tax_minor: invoice.taxMinor.toString(),
    total_minor: invoice.totalMinor.toString(),
    amount_paid_minor: invoice.amountPaidMinor.toString(),
    balance_minor: invoice.balanceMinor.toString(),
    notes: invoice.notes,
    schedule_id: invoice.scheduleId,
    sent_at: invoice.sentAt,
    paid_at: invoice.paidAt,
    voided_at: invoice.voidedAt,
    void_reason: invoice.voidReason,
    revision: invoice.revision,
    created_at: invoice.createdAt,
    updated_at: invoice.updatedAt,
  };
}

export function toInvoiceRecord(invoice: InvoiceModel, today: IsoDate): Invoice {
  return {
    ...toInvoiceSummary(invoice, today),
    lines: invoice.lines.map((line) => ({
      position: line.position,
      description: line.description,
      quantity: line.quantity,
      unit_amount_minor: line.unitAmountMinor.toString(),
      tax_rate: line.taxRate,
      subtotal_minor: line.subtotalMinor.toString(),
      tax_minor: line.taxMinor.toString(),
      total_minor: line.totalMinor.toString(),
    })),
    payments: invoice.payments.map(toPaymentRecord),
  };
}

/** Input schemas shared by invoices.create and invoices.update. */

export const Currency = Type.String({
  minLength: 1,
  maxLength: 10,
  description: 'Uppercase ISO 4217 code from the supported table (docs/invoicing.md), e.g. `CAD`.',
});

export const LineInput = Type.Object(
  {
    description: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'What is billed, 1-500 characters.',
    }),
    quantity: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Decimal string greater than 0, at most 9 integer and 4 fraction digits ("1", "1.5").',
    }),
    unitAmountMinor: Type.String({
      pattern: MINOR_PATTERN,
      description: 'Price of one unit in minor units, decimal string 0 to 9007199254740991.',
    }),
    taxRate: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10,
        description: 'Tax percentage 0-100 with at most 4 fraction digits ("13", "8.875"); absent: untaxed.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Lines = Type.Array(LineInput, {
  minItems: 1,
  maxItems: MAX_LINES,
  description: `Line items, 1 to ${MAX_LINES}; totals are computed by the server (per line, half-even).`,
});

export const IssueDate = DateString("Issue date (YYYY-MM-DD); default: the organization's today.");
export const DueDate = DateString(
  'Due date (YYYY-MM-DD), not before the issue date. Give this or paymentTermsDays.',
);
export const PaymentTermsDays = Type.Integer({
  minimum: 0,
  maximum: 365,
  description: 'Days after the issue date the invoice is due, 0-365. Give this or dueDate.',
});
export const ScheduledSendDate = DateString(
  'Day (organization time zone) the draft is sent automatically; on or after the issue date and not after the due date.',
);
export const Notes = Type.String({
  maxLength: 2000,
  description: 'Printed on the invoice, up to 2000 characters.',
});

/** Fields of a recurring schedule, shared by create (some required) and update (all optional). */
export const recurringFields = {
  name: SingleLineText(1, 200, 'Label shown to the organization, 1-200 characters on one line.'),
  partyId: Id('The party every invoice is addressed to.'),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, uppercase (e.g. CAD).' }),
  lines: TemplateLines,
  paymentTermsDays: Type.Integer({
    minimum: 0,
    maximum: 365,
    description: 'Each invoice is due this many days after its issue date, 0-365 (default 30).',
  }),
  notes: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
    description: 'Printed on every invoice, up to 2000 characters, or null.',
  }),
  cadence: CadenceInput,
  startDate: DateString('First possible invoice date (YYYY-MM-DD). Slots before today are not back-filled.'),
  end: EndInput,
  autoSend: Type.Boolean({
    description: 'true: each invoice is sent to the party at once; false (default): left as a draft.',
  }),
  timeZone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "IANA time zone whose calendar decides run dates (default: the organization's).",
  }),
};

/**
 * How a payment plan's installments are asked for, by invoices.paymentPlans.create (2-120 of the
 * balance) and invoices.paymentPlans.reschedule (1-120 of what is left): one definition, two bounds.
 */
export function installmentFields(
  limits: InstallmentLimits,
  amountName: string,
  /** Extra rule for the first due date (reschedule: after the last paid installment). */
  firstDueRule = 'today or later',
) {
  const equal = Type.Object(
    {
      count: Type.Integer({
        minimum: limits.min,
        maximum: limits.max,
        description: `Number of installments, ${limits.min}-${limits.max}. Amounts differ by at most one minor unit; the odd units go to the first installments.`,
      }),
      firstDueDate: DateString(`Due date of the first installment, ${firstDueRule} (plan time zone).`),
      interval: Type.Object(
        {
          kind: Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], {
            description: 'weekly, or monthly on the first due date\u2019s day (clamped in short months).',
          }),
          every: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 52,
              description: 'Every N weeks (1-52) or months (1-12); default 1.',
            }),
          ),
        },
        { additionalProperties: false, description: 'Spacing of the due dates.' },
      ),
    },
    { additionalProperties: false, description: 'Equal installments over an interval.' },
  );
  const custom = Type.Array(
    Type.Object(
      {
        dueDate: DateString(`Due date; strictly later than the previous one, the first ${firstDueRule}.`),
        amountMinor: Type.String({
          pattern: POSITIVE_MINOR_PATTERN,
          description: 'Amount, decimal string of minor units, 1 to 9007199254740991.',
        }),
      },
      { additionalProperties: false },
    ),
    {
      minItems: limits.min,
      maxItems: limits.max,
      description: `Custom installments; the amounts must sum exactly to ${amountName} (else installments_sum_mismatch).`,
    },
  );
  return { equal, custom };
}

export const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

export const recurringExample = {
  partyId: PLACEHOLDER_ID,
  currency: 'CAD',
  lines: [{ description: 'Monthly retainer', quantity: '1', unitAmountMinor: '150000', taxRate: '13' }],
  paymentTermsDays: 30,
  cadence: { kind: 'monthly' as const, dayOfMonth: 'last' as const },
  startDate: '2026-10-01',
  end: { kind: 'after_count' as const, count: 12 },
  autoSend: true,
};
