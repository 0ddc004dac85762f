import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { EventEnvelope, toEnvelope } from '../../events/envelope.ts';
import { defineOperation } from '../define.ts';

export const getEvent = defineOperation({
  name: 'webhooks.events.get',
  summary: 'Get one event as delivered',
  description:
    'The envelope exactly as delivered to endpoints (id, type, created, organizationId, subject, data).',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object({ id: Id('Event id.') }, { additionalProperties: false }),
  output: EventEnvelope,
  example: { id: '01920000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('events')
      .select(['id', 'type', 'organization_id', 'subject_type', 'subject_id', 'data', 'created_at'])
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Event', 'id');
    return toEnvelope(row);
  },
});
