import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { selectDeliveries, toAttempt, toDelivery, WebhookDeliveryWithAttempts } from './store.ts';

export const getDelivery = defineOperation({
  name: 'webhooks.deliveries.get',
  summary: 'Get one delivery with every attempt',
  description:
    'Each attempt shows its number (Service-Delivery-Attempt), start, duration, HTTP status, outcome, error class and the first 1024 characters of the answer. Request headers and the signing secret are never stored.',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object({ id: Id('Delivery id.') }, { additionalProperties: false }),
  output: WebhookDeliveryWithAttempts,
  example: { id: '01920000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    const row = await selectDeliveries(ctx.db, ctx.organizationId)
      .where('d.id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Webhook delivery', 'id');
    const attempts = await ctx.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('delivery_id', '=', row.id)
      .orderBy('attempt_number')
      .execute();
    return { ...toDelivery(row), attempts: attempts.map(toAttempt) };
  },
});
