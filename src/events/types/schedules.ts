import { type TProperties, Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

/**
 * Events of recurring schedules, payment plans and deadlines (joined into the catalog by
 * src/events/types/invoicing.ts; `scheduleEventData` in src/invoicing/schedules/events.ts fills them). Data is camelCase, money a decimal string of minor units,
 * dates ISO dates.
 */

const MINOR_PATTERN = '^(0|[1-9][0-9]{0,17})$';
const Minor = Type.String({ pattern: MINOR_PATTERN });
const DateValue = Type.String({ format: 'date' });
const NullableDate = Type.Union([DateValue, Type.Null()]);

const scheduleData = {
  kind: Type.String({ description: 'recurring or payment_plan.' }),
  status: Type.String({ description: 'active, paused, cancelled or completed.' }),
  name: Type.String(),
  partyId: Type.String(),
  currency: Type.String(),
  invoiceId: Type.Union([Type.String(), Type.Null()], { description: 'Payment plans: the invoice split.' }),
  nextRunDate: NullableDate,
  revision: Type.Integer(),
};

const object = (properties: TProperties) => Type.Object(properties, { additionalProperties: false });

const schedule = (type: string, description: string, extra: TProperties = {}): EventDefinition => ({
  type,
  subjectType: 'invoice_schedule',
  description,
  data: object({ ...scheduleData, ...extra }),
});

const invoiceDeadlineData = object({
  number: Type.Union([Type.String(), Type.Null()]),
  partyId: Type.String(),
  currency: Type.String(),
  totalMinor: Minor,
  balanceMinor: Minor,
  dueDate: DateValue,
});

/** Exactly invoiceEventData (src/invoicing/invoices/model.ts) plus the refusal's code. */
const scheduledSendFailedData = object({
  number: Type.Union([Type.String(), Type.Null()], { description: 'Null: a draft has no number.' }),
  status: Type.String({ description: 'Still draft.' }),
  partyId: Type.String({ description: 'ID of the invoiced party.' }),
  currency: Type.String({ description: 'ISO 4217 code.' }),
  totalMinor: Type.String({ pattern: MINOR_PATTERN, description: 'Invoice total, minor units.' }),
  amountPaidMinor: Type.String({ pattern: MINOR_PATTERN, description: 'Always 0 for a draft.' }),
  balanceMinor: Type.String({ pattern: MINOR_PATTERN, description: 'What is left to pay, minor units.' }),
  issueDate: Type.String({ format: 'date', description: 'Issue date.' }),
  dueDate: Type.String({ format: 'date', description: 'Due date.' }),
  scheduledSendDate: Type.String({ format: 'date', description: 'The day it should have been sent.' }),
  errorCode: Type.String({ description: 'Code of the refusal, e.g. party_email_missing.' }),
});

const installmentData = object({
  scheduleId: Type.String(),
  invoiceId: Type.String(),
  invoiceNumber: Type.Union([Type.String(), Type.Null()]),
  sequence: Type.Integer({ description: '1-based position in the plan.' }),
  installmentCount: Type.Integer(),
  partyId: Type.String(),
  currency: Type.String(),
  amountMinor: Minor,
  dueDate: DateValue,
});

export const scheduleEvents: readonly EventDefinition[] = [
  schedule('invoice.schedule.created', 'A recurring invoice schedule or a payment plan was created.'),
  schedule(
    'invoice.schedule.updated',
    'A recurring invoice schedule was changed, or a payment plan renamed.',
  ),
  schedule(
    'invoice.schedule.rescheduled',
    "A payment plan's unpaid installments were replaced (invoices.paymentPlans.reschedule); paid ones are kept.",
    {
      installmentCount: Type.Integer({ description: 'Installments of the plan now, kept and new.' }),
      keptCount: Type.Integer({ description: 'Paid installments kept unchanged (numbered 1..keptCount).' }),
      rescheduledMinor: Type.String({
        pattern: MINOR_PATTERN,
        description: 'What the new installments sum to: invoice total minus the last kept threshold.',
      }),
      firstDueDate: Type.String({ format: 'date', description: 'Due date of the first new installment.' }),
    },
  ),
  schedule(
    'invoice.schedule.paused',
    'A schedule or plan was paused: nothing is prepared or sent until resumed.',
  ),
  schedule(
    'invoice.schedule.resumed',
    'A schedule or plan was resumed; periods missed while paused are skipped.',
  ),
  schedule('invoice.schedule.cancelled', 'A schedule or plan was cancelled; it makes nothing more.'),
  schedule(
    'invoice.schedule.completed',
    'A schedule reached its end condition, or a plan its last installment.',
  ),
  schedule(
    'invoice.schedule.upcoming',
    'Notice to the organization, ACCOUNTING_SCHEDULE_NOTICE_DAYS before a recurring invoice is made.',
    { runDate: DateValue, amountMinor: Minor, autoSend: Type.Boolean() },
  ),
  schedule(
    'invoice.schedule.run_failed',
    'A recurring invoice could not be made or sent (for example the party has no email).',
    {
      runDate: DateValue,
      errorCode: Type.String({ description: 'Code of the refusal, e.g. party_email_missing.' }),
      draftInvoiceId: Type.Union([Type.String(), Type.Null()], {
        description: 'When only sending failed: the draft that was kept, to send by hand.',
      }),
    },
  ),
  schedule(
    'invoice.schedule.run_skipped',
    'Runs missed during downtime were older than ACCOUNTING_SCHEDULE_CATCHUP_DAYS and were skipped.',
    {
      runDates: Type.Array(DateValue, { description: 'The skipped run dates, oldest first.' }),
    },
  ),
  {
    type: 'invoice.scheduled_send_failed',
    subjectType: 'invoice',
    description:
      'A draft was not sent on its scheduledSendDate (for example the party has no email); tried again once the draft or its party changes.',
    data: scheduledSendFailedData,
  },
  {
    type: 'invoice.due_soon',
    subjectType: 'invoice',
    description: 'Deadline coming up: a sent invoice with a balance is due within ACCOUNTING_DUE_SOON_DAYS.',
    data: invoiceDeadlineData,
  },
  {
    type: 'invoice.overdue',
    subjectType: 'invoice',
    description: 'A sent invoice passed its due date with a balance left (once per invoice).',
    data: invoiceDeadlineData,
  },
  {
    type: 'installment.due_soon',
    subjectType: 'installment',
    description: 'Deadline coming up: an unpaid installment is due within ACCOUNTING_DUE_SOON_DAYS.',
    data: installmentData,
  },
  {
    type: 'installment.overdue',
    subjectType: 'installment',
    description: 'An installment passed its due date unpaid (once per installment).',
    data: installmentData,
  },
  {
    type: 'installment.paid',
    subjectType: 'installment',
    description: "Payments on the invoice reached this installment's share.",
    data: installmentData,
  },
];
