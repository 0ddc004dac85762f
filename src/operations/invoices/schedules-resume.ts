import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { resumeSchedule } from '../../invoicing/schedules/lifecycle.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { PLACEHOLDER_ID } from './schema.ts';

export const resumeScheduleOperation = defineOperation({
  name: 'invoices.schedules.resume',
  summary: 'Resume a paused recurring invoice or payment plan',
  description:
    'Periods missed while paused are skipped, not back-filled: the next invoice is the first slot on or after today. A plan sends no overdue notice for installments that fell due while paused. A schedule whose end passed while paused becomes completed.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('ID of the paused schedule or payment plan.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: { id: PLACEHOLDER_ID, expectedRevision: 2 },
  async run({ ctx, input }) {
    const row = await resumeSchedule(ctx, input.id, input.expectedRevision);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
