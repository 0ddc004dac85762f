import { Type } from 'typebox';
import { Id, Limit } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';
import { selectDeliveries, toDelivery, WebhookDelivery } from './store.ts';

export const listDeliveries = defineOperation({
  name: 'webhooks.deliveries.list',
  summary: 'List the webhook delivery log, newest first',
  description:
    'One item per (event, endpoint) pair. Cursor pagination (deliveries arrive all the time; pages never skip or repeat). Filters combine; webhooks.deliveries.get adds the attempts. Kept as long as their event (ACCOUNTING_EVENT_RETENTION_DAYS, default 30).',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      endpointId: Type.Optional(Id('Only deliveries to this endpoint.')),
      eventId: Type.Optional(Id('Only deliveries of this event.')),
      status: Type.Optional(
        Type.Union(
          [
            Type.Literal('pending'),
            Type.Literal('succeeded'),
            Type.Literal('failed'),
            Type.Literal('cancelled'),
          ],
          { description: 'Only deliveries in this state: pending, succeeded, failed or cancelled.' },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(WebhookDelivery, 'The page of deliveries (without attempts), newest first.'),
  example: { limit: 30, status: 'failed' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    let query = selectDeliveries(ctx.db, ctx.organizationId);
    if (input.endpointId !== undefined) query = query.where('d.endpoint_id', '=', input.endpointId);
    if (input.eventId !== undefined) query = query.where('d.event_id', '=', input.eventId);
    if (input.status !== undefined) query = query.where('d.status', '=', input.status);
    if (input.cursor !== undefined) {
      const position = decodeCursor(input.cursor);
      query = query.where((eb) =>
        // A row comparison, so the index seeks to the page instead of filtering every row.
        eb(eb.refTuple('d.created_at', 'd.id'), '<', eb.tuple(position.createdAt, position.id)),
      );
    }
    const rows = await query
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit + 1)
      .execute();
    return cursorPage(
      rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
      limit,
      toDelivery,
    );
  },
});
