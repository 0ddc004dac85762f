import { Type } from 'typebox';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Timestamp } from '../../contract/formats.ts';
import { requeueFailedSince } from '../../webhooks/delivery/queue/requeue.ts';
import { retryScheduleOf } from '../../webhooks/delivery/settings.ts';
import { selectEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';

export const recoverDeliveries = defineOperation({
  name: 'webhooks.deliveries.recover',
  summary: 'Send again every failed delivery of an endpoint since a time',
  description:
    'After an outage of the receiver: every `failed` delivery of the endpoint created at or after `since` goes back to pending, due now, exactly as webhooks.deliveries.retry does for one (attempt numbers continue, at least one more attempt). Returns how many were re-queued; calling again re-queues only what has failed since, so a repeat is harmless. The endpoint must be active (409 invalid_state otherwise). Cancelled deliveries are left alone: retry them one by one.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      endpointId: Id('Endpoint id.'),
      since: Timestamp('Deliveries created at or after this instant (ISO 8601) are recovered.'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      endpoint_id: Id('The endpoint.'),
      since: Timestamp('The instant given, normalized to UTC.'),
      recovered: Type.Integer({
        minimum: 0,
        description: 'How many failed deliveries went back to pending.',
      }),
    },
    { additionalProperties: false },
  ),
  example: { endpointId: '01920000-0000-7000-8000-000000000001', since: '2026-09-22T00:00:00.000Z' },
  async run({ ctx, input }) {
    const since = new Date(input.since);
    if (Number.isNaN(since.getTime())) {
      throw new AppError('invalid_input', 'since must be an ISO 8601 date-time.', { field: 'since' });
    }
    const endpoint = await selectEndpoint(ctx.db, ctx.organizationId, input.endpointId);
    if (!endpoint) throw notFound('Webhook endpoint', 'endpointId');
    if (endpoint.status !== 'active') {
      throw new AppError(
        'invalid_state',
        `The endpoint is ${endpoint.status}; turn it back on before recovering.`,
        {
          details: { state: endpoint.status },
        },
      );
    }
    const now = ctx.clock.now().toISOString();
    const scheduleLength = retryScheduleOf(ctx.services.config.webhooks.retrySchedule).length;
    const recovered = await requeueFailedSince(ctx, endpoint.id, since.toISOString(), {
      scheduleLength,
      now,
    });
    await ctx.audit({
      recordType: 'webhook_endpoint',
      recordId: endpoint.id,
      beforeRevision: null,
      afterRevision: null,
    });
    if (recovered > 0) ctx.wake('events');
    return { endpoint_id: endpoint.id, since: since.toISOString(), recovered };
  },
});
