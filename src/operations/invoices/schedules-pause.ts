import { Type } from 'typebox';
import { Id, Revision } from '../../contract/formats.ts';
import { pauseSchedule } from '../../invoicing/schedules/lifecycle.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { PLACEHOLDER_ID } from './schema.ts';

/**
 * Exactly as the contract states it: id, expectedRevision and idempotencyKey are all required in
 * the body. The Idempotency-Key header may be sent as well, and must then equal the body key
 * (the pipeline's header/body rule); the header alone is not enough here.
 */
export const pauseScheduleOperation = defineOperation({
  name: 'invoices.schedules.pause',
  summary: 'Pause a recurring invoice or payment plan',
  description:
    'While paused nothing new is prepared or sent: no invoices, no notices, no installment reminders. A stale expectedRevision is refused with 409 revision_conflict; a schedule that is not active with 409 invalid_state. Resume with invoices.schedules.resume (missed periods are skipped, not back-filled).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  mcpTool: 'accounting_invoices_schedules_pause',
  input: Type.Object(
    {
      id: Id('ID of the recurring invoice schedule or payment plan.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.String({
        minLength: 8,
        maxLength: 200,
        description:
          'Idempotency key, 8-200 characters, required in the body; an Idempotency-Key header, if also sent, must be equal.',
      }),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: { id: PLACEHOLDER_ID, expectedRevision: 1, idempotencyKey: 'pause-schedule-0001' },
  async run({ ctx, input }) {
    const row = await pauseSchedule(ctx, input.id, input.expectedRevision);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
