import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { asJson } from '../../db/values.ts';
import type { ScheduleEnd } from '../../invoicing/cadence.ts';
import { invalidState, recordChange } from '../../invoicing/schedules/lifecycle.ts';
import { InvoiceSchedule, type StoredTemplate } from '../../invoicing/schedules/records.ts';
import { updateRecurringSchedule } from '../../invoicing/schedules/recurring.ts';
import { requireSchedule, scheduleRecord, updateSchedule } from '../../invoicing/schedules/repository.ts';
import type { StoredCadence } from '../../invoicing/schedules/wire.ts';
import { loadForChange } from '../../unit/revision.ts';
import { defineOperation } from '../define.ts';
import { recurringFields as f, PLACEHOLDER_ID } from './schema.ts';

const changeable = {
  name: Type.Optional(f.name),
  partyId: Type.Optional(f.partyId),
  currency: Type.Optional(f.currency),
  lines: Type.Optional(f.lines),
  paymentTermsDays: Type.Optional(f.paymentTermsDays),
  notes: Type.Optional(f.notes),
  cadence: Type.Optional(f.cadence),
  startDate: Type.Optional(f.startDate),
  end: Type.Optional(f.end),
  autoSend: Type.Optional(f.autoSend),
  timeZone: Type.Optional(f.timeZone),
};

export const updateScheduleOperation = defineOperation({
  name: 'invoices.schedules.update',
  summary: 'Change a recurring invoice schedule (or rename a payment plan)',
  description:
    'Active or paused schedules only. Template changes apply to invoices made from now on; a change of cadence, start, end or time zone recomputes the next run from today (never before the last run). Payment plans accept only `name`.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Schedule id.'),
      expectedRevision: Revision(),
      ...changeable,
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InvoiceSchedule,
  example: { id: PLACEHOLDER_ID, expectedRevision: 1, autoSend: false },
  async run({ ctx, input }) {
    const { id, expectedRevision, idempotencyKey: _key, ...patch } = input;
    const given = Object.keys(patch);
    if (given.length === 0) throw new AppError('invalid_input', 'Give at least one field to change.');
    const row = await loadForChange(requireSchedule(ctx.db, ctx.organizationId, id), expectedRevision);
    if (row.status !== 'active' && row.status !== 'paused') throw invalidState(row, 'changed');
    let after = row;
    if (row.kind === 'payment_plan') {
      const other = given.find((field) => field !== 'name');
      if (other !== undefined) {
        throw new AppError('invalid_input', `${other} applies to recurring schedules only.`, {
          field: other,
        });
      }
      after = await updateSchedule(ctx.db, row, { name: patch.name ?? row.name }, ctx.clock.now());
      await recordChange(ctx, row, after, 'invoice.schedule.updated');
    } else {
      after = await updateRecurringSchedule(ctx, row, patch, {
        template: asJson<StoredTemplate>(row.template),
        cadence: asJson<StoredCadence>(row.cadence),
        end: asJson<ScheduleEnd>(row.end_condition),
      });
    }
    return scheduleRecord(ctx.db, after, ctx.clock.now());
  },
});
