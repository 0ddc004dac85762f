import { Type } from 'typebox';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { requeueDelivery } from '../../webhooks/delivery/queue/requeue.ts';
import { retryScheduleOf } from '../../webhooks/delivery/settings.ts';
import { defineOperation } from '../define.ts';
import { retryPendingNow, selectDeliveries, toDelivery, WebhookDelivery } from './store.ts';

const RETRYABLE = ['failed', 'cancelled'];

export const retryDelivery = defineOperation({
  name: 'webhooks.deliveries.retry',
  summary: 'Send a delivery again now (failed, cancelled, or pending and waiting)',
  description:
    'A failed or cancelled delivery goes back to pending, due now; attempt numbers continue (the next one is attempt_count + 1) and the body is the same. A cancelled delivery gets what was left of the retry schedule, a failed one at least one more attempt. A pending delivery waiting for its next retry becomes due now ("retry now"), its schedule otherwise unchanged. Refused (409 invalid_state) for a succeeded delivery, for a pending one whose attempt is in flight (`in_flight` true), and while the endpoint is disabled or archived.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    { id: Id('Delivery id.'), idempotencyKey: Type.Optional(IdempotencyKey(200)) },
    { additionalProperties: false },
  ),
  output: WebhookDelivery,
  example: { id: '01920000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    const row = await selectDeliveries(ctx.db, ctx.organizationId)
      .where('d.id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Webhook delivery', 'id');
    if (row.status === 'pending') return retryPendingNow(ctx, row);
    if (!RETRYABLE.includes(row.status)) {
      throw new AppError('invalid_state', `A ${row.status} delivery cannot be retried.`, {
        details: { state: row.status },
      });
    }
    const endpoint = await ctx.db
      .selectFrom('webhook_endpoints')
      .select('status')
      .where('id', '=', row.endpoint_id)
      .where('organization_id', '=', ctx.organizationId)
      .executeTakeFirstOrThrow();
    if (endpoint.status !== 'active') {
      throw new AppError(
        'invalid_state',
        `The endpoint is ${endpoint.status}; turn it back on before retrying.`,
        {
          details: { state: row.status, endpoint_status: endpoint.status },
        },
      );
    }
    const scheduleLength = retryScheduleOf(ctx.services.config.webhooks.retrySchedule).length;
    const now = ctx.clock.now().toISOString();
    const requeued = await requeueDelivery(
      ctx,
      { id: row.id, status: row.status, attemptCount: row.attempt_count },
      { scheduleLength, now },
    );
    if (!requeued) {
      // A concurrent retry won; report the state it left behind.
      throw new AppError('invalid_state', 'The delivery changed meanwhile; reload it.', {
        details: { state: 'pending' },
      });
    }
    await ctx.audit({
      recordType: 'webhook_delivery',
      recordId: row.id,
      beforeRevision: null,
      afterRevision: null,
    });
    return toDelivery({
      ...row,
      status: 'pending',
      next_attempt_at: now,
      completed_at: null,
      updated_at: now,
    });
  },
});
