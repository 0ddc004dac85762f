import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey } from '../../contract/formats.ts';
import { MAX_INSTALLMENTS, MIN_INSTALLMENTS } from '../../invoicing/installments.ts';
import { createPaymentPlan } from '../../invoicing/schedules/plans.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { PLACEHOLDER_ID, recurringFields } from './inputs.ts';

const Equal = Type.Object(
  {
    count: Type.Integer({
      minimum: MIN_INSTALLMENTS,
      maximum: MAX_INSTALLMENTS,
      description: `Number of installments, ${MIN_INSTALLMENTS}-${MAX_INSTALLMENTS}. Amounts differ by at most one minor unit; the odd units go to the first installments.`,
    }),
    firstDueDate: DateString('Due date of the first installment, today or later (plan time zone).'),
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

const Custom = Type.Array(
  Type.Object(
    {
      dueDate: DateString('Due date; strictly later than the previous one, the first today or later.'),
      amountMinor: Type.String({
        pattern: '^(0|[1-9][0-9]{0,15})$',
        description: 'Amount, decimal string of minor units, greater than 0.',
      }),
    },
    { additionalProperties: false },
  ),
  {
    minItems: MIN_INSTALLMENTS,
    maxItems: MAX_INSTALLMENTS,
    description:
      'Custom installments; the amounts must sum exactly to the balance (else installments_sum_mismatch).',
  },
);

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
