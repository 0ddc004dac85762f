import { type Static, Type } from 'typebox';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { IsoDate } from '../../invoicing/calendar.ts';
import type { Invoice as InvoiceModel } from '../../invoicing/service/index.ts';
import { PAYMENT_METHODS } from '../../invoicing/service/index.ts';
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
