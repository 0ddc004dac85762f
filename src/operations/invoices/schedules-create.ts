import { Type } from 'typebox';
import { IdempotencyKey } from '../../contract/formats.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { createRecurringSchedule } from '../../invoicing/schedules/recurring.ts';
import { scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { recurringFields as f, recurringExample } from './schema.ts';

export const createSchedule = defineOperation({
  name: 'invoices.schedules.create',
  summary: 'Create a recurring invoice schedule',
  description:
    'A template (party, currency, lines, terms) and a cadence. The worker makes each invoice on its date in the schedule time zone, exactly once, sends it when autoSend is true, and notifies the organization ACCOUNTING_SCHEDULE_NOTICE_DAYS before. Payment plans are created with invoices.paymentPlans.create.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      name: Type.Optional(f.name),
      partyId: f.partyId,
      currency: f.currency,
      lines: f.lines,
      paymentTermsDays: Type.Optional(f.paymentTermsDays),
      notes: Type.Optional(f.notes),
      cadence: f.cadence,
      startDate: f.startDate,
      end: Type.Optional(f.end),
      autoSend: Type.Optional(f.autoSend),
      timeZone: Type.Optional(f.timeZone),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: recurringExample,
  async run({ ctx, input }) {
    const row = await createRecurringSchedule(ctx, {
      ...input,
      paymentTermsDays: input.paymentTermsDays ?? 30,
      end: input.end ?? { kind: 'never' },
      autoSend: input.autoSend ?? false,
    });
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
