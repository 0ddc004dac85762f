// Writing down what an attempt did: the delivery's next state, the attempt log row, the endpoint's
// counters and, when the contract says so, turning the endpoint off. One transaction.
//
// Lock order (PostgreSQL): the endpoint row first, then delivery rows. Every writer that touches
// both (this, auto-disable, archive) takes them in that order, so they never deadlock; the claimer
// takes no lock it would wait for (SKIP LOCKED everywhere).
import { newId } from '../../lib/ids.ts';
import { withUnit } from '../../unit/with-unit.ts';
import type { DeliveryResult } from '../safe-client.ts';
import type { AttemptDeps } from './attempt.ts';
import { disableEndpoint, shouldAutoDisable } from './auto-disable.ts';
import { type ClaimedDelivery, clip, settleAttempt } from './queue.ts';

export const DELIVERY_JOB = 'webhooks.deliver';

export async function recordOutcome(
  deps: AttemptDeps,
  claimed: ClaimedDelivery,
  attempt: { result: DeliveryResult; startedAt: Date },
): Promise<void> {
  const { services, workerId } = deps;
  const { result } = attempt;
  await withUnit(
    services,
    {
      organizationId: claimed.organizationId,
      actor: { type: 'job', job: DELIVERY_JOB },
      operation: DELIVERY_JOB,
    },
    async (unit) => {
      const trx = unit.db;
      const now = services.clock.now();
      const nowIso = now.toISOString();
      const success = result.outcome === 'success';
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set((eb) =>
          success
            ? { failure_count: 0, last_success_at: nowIso, last_delivery_at: nowIso }
            : { failure_count: eb('failure_count', '+', 1), last_delivery_at: nowIso },
        )
        .where('id', '=', claimed.endpointId)
        .where('organization_id', '=', claimed.organizationId)
        .returning(['failure_count', 'last_success_at'])
        .executeTakeFirst();

      const errorMessage =
        result.outcome === 'gone' ? 'HTTP 410 Gone: the endpoint was turned off' : result.errorMessage;
      const delay = deps.delayBefore(claimed.attemptNumber + 1);
      const exhausted = claimed.attemptNumber >= claimed.attemptLimit || delay === undefined;
      const finalStatus = success
        ? 'succeeded'
        : result.outcome === 'gone' || exhausted
          ? 'failed'
          : 'pending';
      const moved = await settleAttempt(trx, claimed, workerId, {
        status: finalStatus,
        statusCode: result.status ?? null,
        error: success ? null : clip(errorMessage),
        now,
        nextAttemptAt: finalStatus === 'pending' ? new Date(now.getTime() + (delay ?? 0)) : null,
      });
      if (!moved) {
        // The lease lapsed or the delivery was cancelled meanwhile; the attempt still happened.
        services.logger.warn(
          { deliveryId: claimed.id, attempt: claimed.attemptNumber },
          'webhook attempt finished after its delivery moved on; only the attempt is recorded',
        );
      }
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId(),
          organization_id: claimed.organizationId,
          delivery_id: claimed.id,
          endpoint_id: claimed.endpointId,
          attempt_number: claimed.attemptNumber,
          started_at: attempt.startedAt.toISOString(),
          duration_ms: result.durationMs,
          status_code: result.status ?? null,
          outcome: success ? 'success' : 'failure',
          error_class: result.outcome === 'gone' ? 'gone' : (result.errorClass ?? null),
          error_message: clip(errorMessage),
          response_excerpt: result.responseExcerpt,
          created_at: nowIso,
        })
        .execute();

      if (!endpoint) return;
      const failureCount = Number(endpoint.failure_count);
      if (result.outcome === 'gone') {
        await disableEndpoint(unit, { endpointId: claimed.endpointId, reason: 'gone', failureCount });
      } else if (!success && shouldAutoDisable(failureCount, endpoint.last_success_at, now)) {
        await disableEndpoint(unit, {
          endpointId: claimed.endpointId,
          reason: 'consecutive_failures',
          failureCount,
        });
      }
    },
  );
}
