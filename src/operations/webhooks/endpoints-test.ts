import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { EventEnvelope, toEnvelope } from '../../events/envelope.ts';
import { WEBHOOK_TEST_EVENT } from '../../events/types/webhooks.ts';
import { enqueueDeliveries } from '../../webhooks/delivery/queue/enqueue.ts';
import { requireEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';

export const TEST_EVENT_MESSAGE = 'This is a test event sent with webhooks.endpoints.test.';

export const testEndpoint = defineOperation({
  name: 'webhooks.endpoints.test',
  summary: 'Send a test event to one webhook endpoint',
  description:
    'Records a webhook.test event and one delivery to this endpoint only (whatever its patterns); it is signed and retried like any delivery and appears in the delivery log. Only active endpoints can be tested.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    { id: Id('Endpoint id.'), idempotencyKey: Type.Optional(IdempotencyKey(200)) },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      delivery_id: Id('The delivery, as in the delivery log and the Service-Delivery-Id header.'),
      event: EventEnvelope,
    },
    { additionalProperties: false },
  ),
  example: { id: '01920000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    const endpoint = await requireEndpoint(ctx.db, ctx.organizationId, input.id);
    if (endpoint.status !== 'active') {
      throw new AppError('invalid_state', `A ${endpoint.status} endpoint cannot be tested.`, {
        details: { state: endpoint.status },
      });
    }
    const now = ctx.clock.now();
    // Through the recorder (catalog check, same transaction); the fan-out never broadcasts a test.
    const event = await ctx.services.events.record(
      ctx.db,
      ctx.organizationId,
      {
        type: WEBHOOK_TEST_EVENT,
        subject: { type: 'webhook_endpoint', id: endpoint.id },
        data: { message: TEST_EVENT_MESSAGE },
      },
      { requestId: ctx.requestId, now },
    );
    const [deliveryId] = await enqueueDeliveries(ctx.db, event, [endpoint.id]);
    // Who sent a test, and when: the endpoint itself is unchanged (same revision before and after).
    await ctx.audit({
      recordType: 'webhook_endpoint',
      recordId: endpoint.id,
      beforeRevision: endpoint.revision,
      afterRevision: endpoint.revision,
    });
    // Recorded without ctx.emit (no fan-out), so the delivery loop is woken here.
    ctx.wake('events');
    const row = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    return { delivery_id: deliveryId ?? '', event: toEnvelope(row) };
  },
});
