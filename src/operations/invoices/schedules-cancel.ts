import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { cancelSchedule } from '../../invoicing/schedules/lifecycle.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { PLACEHOLDER_ID } from './schema.ts';

export const cancelScheduleOperation = defineOperation({
  name: 'invoices.schedules.cancel',
  summary: 'Cancel a recurring invoice or payment plan',
  description:
    'Final: the schedule makes no more invoices, notices or reminders. Invoices already made are kept. Cancelling a payment plan leaves the invoice with its balance and its own due date (its reminders apply again); a new plan may then be created.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('ID of the schedule or payment plan.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: { id: PLACEHOLDER_ID, expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await cancelSchedule(ctx, input.id, input.expectedRevision);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
