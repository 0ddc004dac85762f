import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { InvoiceSchedule } from '../../invoicing/schedules/records.ts';
import { scheduleRecords, selectSchedules } from '../../invoicing/schedules/repository.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

export const listSchedules = defineOperation({
  name: 'invoices.schedules.list',
  summary: 'List recurring invoice schedules and payment plans, newest first',
  description: 'Offset pagination; filters kind, status, partyId and invoiceId (the plan of an invoice).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      kind: Type.Optional(
        Type.Union([Type.Literal('recurring'), Type.Literal('payment_plan')], {
          description: 'Only recurring schedules or only payment plans.',
        }),
      ),
      status: Type.Optional(
        Type.Union(
          [
            Type.Literal('active'),
            Type.Literal('paused'),
            Type.Literal('cancelled'),
            Type.Literal('completed'),
          ],
          { description: 'Only schedules in this state.' },
        ),
      ),
      partyId: Type.Optional(Id('Only schedules of this party.')),
      invoiceId: Type.Optional(Id('Only payment plans of this invoice.')),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(
    InvoiceSchedule,
    'The page of recurring schedules and payment plans, newest first (by creation).',
  ),
  example: { kind: 'recurring', status: 'active' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = selectSchedules(ctx.db, ctx.organizationId);
    if (input.kind) query = query.where('kind', '=', input.kind);
    if (input.status) query = query.where('status', '=', input.status);
    if (input.partyId) query = query.where('party_id', '=', input.partyId);
    if (input.invoiceId) query = query.where('invoice_id', '=', input.invoiceId);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const page = offsetPage(rows, limit, offset);
    return { ...page, items: await scheduleRecords(ctx.db, page.items, ctx.clock.now()) };
  },
});
