import { AppError } from '../../contract/errors.ts';
import { makePendingDueNow } from '../../webhooks/delivery/queue.ts';
import type { OperationContext } from '../context.ts';
import { type DeliveryRow, toDelivery, type WebhookDelivery } from './store.ts';

/**
 * "Retry now" on a delivery waiting for its next attempt: it becomes due at once, keeping its
 * attempt count and limit. One in flight (leased) is left alone: its attempt is under way.
 */
export async function retryPendingNow(ctx: OperationContext, row: DeliveryRow): Promise<WebhookDelivery> {
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
  const now = ctx.clock.now().toISOString();
  const moved = await makePendingDueNow(ctx, row.id, now);
  if (!moved) {
    throw new AppError(
      'invalid_state',
      'An attempt of this delivery is in flight; its outcome comes shortly.',
      {
        details: { state: 'pending', in_flight: true },
      },
    );
  }
  await ctx.audit({
    recordType: 'webhook_delivery',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: null,
  });
  ctx.afterCommit(() => ctx.services.wakeups.notify('events'));
  return toDelivery({ ...row, next_attempt_at: now, updated_at: now });
}
