import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { requireSchedule, scheduleRecord } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { PLACEHOLDER_ID } from './schema.ts';

export const getSchedule = defineOperation({
  name: 'invoices.schedules.get',
  summary: 'Get a recurring invoice schedule or a payment plan',
  description: 'Payment plans come with their installments and the status of each (open, overdue, paid).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Schedule or payment plan id.') }, { additionalProperties: false }),
  output: InvoiceSchedule,
  example: { id: PLACEHOLDER_ID },
  async run({ ctx, input }) {
    const row = await requireSchedule(ctx.db, ctx.organizationId, input.id);
    return scheduleRecord(ctx.db, row, ctx.clock.now());
  },
});
