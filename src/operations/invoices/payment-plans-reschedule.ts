import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { MAX_INSTALLMENTS } from '../../invoicing/installments.ts';
import { reschedulePaymentPlan } from '../../invoicing/schedules/plan-reschedule.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { installmentFields, PLACEHOLDER_ID } from './schema.ts';

// One new installment is allowed once at least one is paid: the plan keeps 2-120 in all.
const { equal: Equal, custom: Custom } = installmentFields(
  { min: 1, max: MAX_INSTALLMENTS },
  'the amount left to reschedule',
  'today or later and after the due date of the last installment kept',
);

export const reschedulePaymentPlanOperation = defineOperation({
  name: 'invoices.paymentPlans.reschedule',
  summary: "Reschedule a payment plan's unpaid installments",
  description:
    'Active or paused plans of a sent invoice. Paid installments are kept as they are; the unpaid ones are replaced by `equal` or `custom`, numbered after the kept ones, summing exactly to the invoice total minus what the kept ones cover (a partial payment toward the next installment counts toward the first new one; else 400 installments_sum_mismatch with balance_minor = that amount). The plan keeps 2-120 installments in all; the first new due date is today or later and after the last paid installment. New installments get their own reminders. Event invoice.schedule.rescheduled.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('ID of the payment plan (an active or paused one).'),
      expectedRevision: Revision(),
      equal: Type.Optional(Equal),
      custom: Type.Optional(Custom),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: {
    id: PLACEHOLDER_ID,
    expectedRevision: 1,
    equal: { count: 2, firstDueDate: '2026-12-01', interval: { kind: 'monthly' } },
  },
  async run({ ctx, input }) {
    const row = await reschedulePaymentPlan(ctx, input);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
