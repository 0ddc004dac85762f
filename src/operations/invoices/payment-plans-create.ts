import { Type } from 'typebox';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { PLAN_LIMITS } from '../../invoicing/installments.ts';
import { createPaymentPlan } from '../../invoicing/schedules/plans.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { installmentFields, PLACEHOLDER_ID, recurringFields } from './schema.ts';

const { equal: Equal, custom: Custom } = installmentFields(PLAN_LIMITS, 'the balance');

export const createPaymentPlanOperation = defineOperation({
  name: 'invoices.paymentPlans.create',
  summary: 'Split a sent invoice into installments (payment plan)',
  description:
    'Give `equal` or `custom`. The installments always sum exactly to the balance. Each is reminded before it is due (installment.due_soon) and is paid once payments recorded on the invoice reach it; the invoice becomes paid with the last one. Read, list, pause, resume and cancel plans with the invoices.schedules operations.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      invoiceId: Id('A sent invoice with a balance above zero.'),
      name: Type.Optional(recurringFields.name),
      equal: Type.Optional(Equal),
      custom: Type.Optional(Custom),
      timeZone: Type.Optional(recurringFields.timeZone),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: {
    invoiceId: PLACEHOLDER_ID,
    equal: { count: 3, firstDueDate: '2026-11-01', interval: { kind: 'monthly' } },
  },
  async run({ ctx, input }) {
    const row = await createPaymentPlan(ctx, input);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
