import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';
import { scheduleEvents } from './schedules.ts';

const Minor = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]*)$', description });
const DateOnly = (description: string) => Type.String({ format: 'date', description });

/** Fields shared by the invoice events; for invoice.paid this is exactly the contract's list. */
const invoiceFields = {
  status: Type.String({ description: 'Invoice status after the change: draft, sent, paid or void.' }),
  partyId: Type.String({ description: 'ID of the invoiced party.' }),
  currency: Type.String({ description: 'ISO 4217 code.' }),
  totalMinor: Minor('Invoice total, minor units.'),
  amountPaidMinor: Minor('Sum of recorded payments, minor units.'),
  balanceMinor: Minor('What is left to pay, minor units.'),
  issueDate: DateOnly('Issue date.'),
  dueDate: DateOnly('Due date.'),
  scheduledSendDate: Type.Union([DateOnly('Day the draft is sent automatically.'), Type.Null()]),
};

const NumberOrNull = Type.Union([Type.String(), Type.Null()], {
  description: 'Invoice number; null while the invoice is a draft.',
});

const InvoiceData = Type.Object({ number: NumberOrNull, ...invoiceFields }, { additionalProperties: false });
const NumberedInvoiceData = Type.Object(
  { number: Type.String({ description: 'Invoice number.' }), ...invoiceFields },
  { additionalProperties: false },
);

/** Invoice events; schedule, installment and deadline events are appended below by their area. */
export const invoicingEvents: readonly EventDefinition[] = [
  {
    type: 'invoice.created',
    subjectType: 'invoice',
    description: 'A draft invoice was created (by a member or by a recurring schedule).',
    data: InvoiceData,
  },
  {
    type: 'invoice.updated',
    subjectType: 'invoice',
    description: 'A draft invoice was changed.',
    data: InvoiceData,
  },
  {
    type: 'invoice.sent',
    subjectType: 'invoice',
    description: 'An invoice received its number and was emailed to the party with its PDF.',
    data: NumberedInvoiceData,
  },
  {
    type: 'invoice.payment_recorded',
    subjectType: 'invoice',
    description: 'A payment was recorded on an invoice (partial or final).',
    data: Type.Object(
      {
        number: Type.String({ description: 'Invoice number.' }),
        ...invoiceFields,
        paymentId: Type.String({ description: 'ID of the payment.' }),
        paymentAmountMinor: Minor('Amount of this payment, minor units.'),
        paidOn: DateOnly('Day the money arrived.'),
        method: Type.String({ description: 'bank_transfer, card, cash, check, direct_debit or other.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'invoice.paid',
    subjectType: 'invoice',
    description: 'The balance of an invoice reached zero; the invoice is paid.',
    data: NumberedInvoiceData,
  },
  {
    type: 'invoice.voided',
    subjectType: 'invoice',
    description: 'An invoice was voided; a sent one keeps its number.',
    data: InvoiceData,
  },
  // schedule, installment and deadline events (append here)
  ...scheduleEvents,
];
