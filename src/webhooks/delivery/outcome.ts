// Writing down what attempts did: each delivery's next state, the attempt log rows, the endpoints'
// counters and, when the contract says so, turning an endpoint off. Outcomes of attempts that
// finished close together are written in ONE transaction (outcome-batch.ts decides when);
// each delivery's move is still fenced on its own lease (queue.ts settleAttempts).
//
// Lock order (PostgreSQL): endpoint rows first, in id order, then delivery rows. Every writer that
// touches both (this, auto-disable, archive) takes the endpoint first, and batches take several
// endpoints in one order, so they never deadlock; the claimer takes no lock it would wait for
// (SKIP LOCKED everywhere).
import { newId } from '../../lib/ids.ts';
import { withUnitsInOneTransaction } from '../../unit/with-unit.ts';
import type { DeliveryResult } from '../safe-client.ts';
import type { AttemptDeps } from './attempt.ts';
import { disableEndpoint, shouldAutoDisable } from './auto-disable.ts';
import { type ClaimedDelivery, clip, type Settlement, settleAttempts } from './queue.ts';

export const DELIVERY_JOB = 'webhooks.deliver';

/** One finished attempt, waiting to be written. */
export interface Outcome {
  claimed: ClaimedDelivery;
  result: DeliveryResult;
  startedAt: Date;
}

/** What the outcomes of one endpoint do to its counters, in the order they finished. */
interface EndpointTally {
  organizationId: string;
  /** A success in the batch: failure_count restarts from the failures after the last one. */
  reset: boolean;
  /** Failures after the last success (all of them when there was none). */
  failures: number;
  gone: boolean;
}

function tally(outcomes: readonly Outcome[]): Map<string, EndpointTally> {
  const byEndpoint = new Map<string, EndpointTally>();
  for (const { claimed, result } of outcomes) {
    let entry = byEndpoint.get(claimed.endpointId);
    if (!entry) {
      entry = { organizationId: claimed.organizationId, reset: false, failures: 0, gone: false };
      byEndpoint.set(claimed.endpointId, entry);
    }
    if (result.outcome === 'success') {
      entry.reset = true;
      entry.failures = 0;
    } else {
      entry.failures += 1;
      if (result.outcome === 'gone') entry.gone = true;
    }
  }
  return byEndpoint;
}

function errorOf(result: DeliveryResult): string | undefined {
  return result.outcome === 'gone' ? 'HTTP 410 Gone: the endpoint was turned off' : result.errorMessage;
}

/** Where an attempt leaves its delivery (the retry schedule decides the next attempt's time). */
function settlementOf(deps: AttemptDeps, outcome: Outcome, now: Date): Settlement {
  const { claimed, result } = outcome;
  const success = result.outcome === 'success';
  const delay = deps.delayBefore(claimed.attemptNumber + 1);
  const exhausted = claimed.attemptNumber >= claimed.attemptLimit || delay === undefined;
  const status = success ? 'succeeded' : result.outcome === 'gone' || exhausted ? 'failed' : 'pending';
  return {
    claimed,
    status,
    statusCode: result.status ?? null,
    error: success ? null : clip(errorOf(result)),
    nextAttemptAt: status === 'pending' ? new Date(now.getTime() + (delay ?? 0)) : null,
  };
}

/** Writes the outcomes of finished attempts in one transaction. */
export async function recordOutcomes(deps: AttemptDeps, outcomes: readonly Outcome[]): Promise<void> {
  const { services, workerId } = deps;
  if (outcomes.length === 0) return;
  await withUnitsInOneTransaction(services, async (trx, unitFor) => {
    const now = services.clock.now();
    const nowIso = now.toISOString();
    const tallies = tally(outcomes);
    const endpointIds = [...tallies.keys()].sort();
    if (services.db.dialect === 'postgres' && endpointIds.length > 1) {
      // One lock order for every batch (sorted ids), so two workers' batches never deadlock.
      await trx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', 'in', endpointIds)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
    }
    // Endpoints whose counters move the same way share one UPDATE (a batch of successes: one).
    const counterGroups = new Map<string, { reset: boolean; failures: number; ids: string[] }>();
    for (const id of endpointIds) {
      const entry = tallies.get(id);
      if (!entry) continue;
      const key = `${entry.reset}:${entry.failures}`;
      const group = counterGroups.get(key);
      if (group) group.ids.push(id);
      else counterGroups.set(key, { reset: entry.reset, failures: entry.failures, ids: [id] });
    }
    const counters = new Map<string, { failure_count: number | string; last_success_at: string | null }>();
    for (const { reset, failures, ids } of counterGroups.values()) {
      const rows = await trx
        .updateTable('webhook_endpoints')
        .set((eb) =>
          reset
            ? { failure_count: failures, last_success_at: nowIso, last_delivery_at: nowIso }
            : { failure_count: eb('failure_count', '+', failures), last_delivery_at: nowIso },
        )
        .where('id', 'in', ids)
        .where(
          'organization_id',
          'in',
          ids.map((id) => tallies.get(id)?.organizationId ?? ''),
        )
        .returning(['id', 'failure_count', 'last_success_at'])
        .execute();
      for (const row of rows) counters.set(row.id, row);
    }

    const moved = await settleAttempts(
      trx,
      services.db.dialect,
      workerId,
      now,
      outcomes.map((outcome) => settlementOf(deps, outcome, now)),
    );
    for (const { claimed } of outcomes) {
      if (moved.has(claimed.id)) continue;
      // The lease lapsed or the delivery was cancelled meanwhile; the attempt still happened.
      services.logger.warn(
        { deliveryId: claimed.id, attempt: claimed.attemptNumber },
        'webhook attempt finished after its delivery moved on; only the attempt is recorded',
      );
    }
    await trx
      .insertInto('webhook_attempts')
      .values(
        outcomes.map(({ claimed, result, startedAt }) => ({
          id: newId(),
          organization_id: claimed.organizationId,
          delivery_id: claimed.id,
          endpoint_id: claimed.endpointId,
          attempt_number: claimed.attemptNumber,
          started_at: startedAt.toISOString(),
          duration_ms: result.durationMs,
          status_code: result.status ?? null,
          outcome: result.outcome === 'success' ? 'success' : 'failure',
          error_class: result.outcome === 'gone' ? 'gone' : (result.errorClass ?? null),
          error_message: clip(errorOf(result)),
          response_excerpt: result.responseExcerpt,
          created_at: nowIso,
        })),
      )
      .execute();

    // Turning endpoints off (rare): a unit of the endpoint's organization, in this transaction.
    for (const endpointId of endpointIds) {
      const entry = tallies.get(endpointId);
      const counter = counters.get(endpointId);
      if (!entry || !counter || (!entry.gone && entry.failures === 0)) continue;
      const failureCount = Number(counter.failure_count);
      const reason = entry.gone
        ? 'gone'
        : shouldAutoDisable(failureCount, counter.last_success_at, now)
          ? 'consecutive_failures'
          : undefined;
      if (reason === undefined) continue;
      const unit = unitFor({
        organizationId: entry.organizationId,
        actor: { type: 'job', job: DELIVERY_JOB },
        operation: DELIVERY_JOB,
      });
      await disableEndpoint(unit, { endpointId, reason, failureCount });
    }
  });
}
