// Writing down what attempts did: each delivery's next state, the attempt log rows, the endpoints'
// counters and, when the contract says so, turning an endpoint off. Outcomes of attempts that
// finished close together are written in ONE transaction (outcome-batch.ts decides when);
// each delivery's move is still fenced on its own lease (queue.ts settleUpdates).
//
// Lock order (PostgreSQL): endpoint rows first, in id order, then delivery rows. Every writer that
// touches both (this, auto-disable, archive) takes the endpoint first, and batches take several
// endpoints in one order, so they never deadlock; the claimer takes no lock it would wait for
// (SKIP LOCKED everywhere).
import { asIsoOrNull } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import { withUnitsInOneTransaction } from '../../unit/with-unit.ts';
import type { DeliveryResult } from '../safe-client.ts';
import type { AttemptDeps } from './attempt.ts';
import { type DisableReason, disableEndpoint, shouldAutoDisable } from './auto-disable.ts';
import {
  type AttemptRow,
  attemptsInsert,
  type CounterGroup,
  counterUpdate,
  type EndpointCounters,
  lockEndpoints,
  writeBatchOnPostgres,
} from './outcome-sql.ts';
import type { ClaimedDelivery } from './queue/claimable.ts';
import { clip } from './queue/error-text.ts';
import { type Settlement, settleAllOnPostgres, settleUpdates } from './queue/settle.ts';

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
  /** Failures before the first success (when there is one): they may have turned the endpoint off. */
  leading: number;
  gone: boolean;
}

function tally(outcomes: readonly Outcome[]): Map<string, EndpointTally> {
  const byEndpoint = new Map<string, EndpointTally>();
  for (const { claimed, result } of outcomes) {
    let entry = byEndpoint.get(claimed.endpointId);
    if (!entry) {
      entry = { organizationId: claimed.organizationId, reset: false, failures: 0, leading: 0, gone: false };
      byEndpoint.set(claimed.endpointId, entry);
    }
    if (result.outcome === 'success') {
      if (!entry.reset) entry.leading = entry.failures;
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

/** Endpoints whose counters move the same way share one UPDATE (a batch of successes: one). */
function counterGroups(tallies: Map<string, EndpointTally>, endpointIds: readonly string[]): CounterGroup[] {
  const groups = new Map<string, CounterGroup>();
  for (const id of endpointIds) {
    const entry = tallies.get(id);
    if (!entry) continue;
    const key = `${entry.reset}:${entry.failures}`;
    const group = groups.get(key);
    if (group) {
      group.ids.push(id);
      group.organizationIds.push(entry.organizationId);
    } else {
      groups.set(key, {
        reset: entry.reset,
        failures: entry.failures,
        ids: [id],
        organizationIds: [entry.organizationId],
      });
    }
  }
  return [...groups.values()];
}

function attemptRowOf({ claimed, result, startedAt }: Outcome, nowIso: string): AttemptRow {
  return [
    newId(),
    claimed.organizationId,
    claimed.id,
    claimed.endpointId,
    claimed.attemptNumber,
    startedAt.toISOString(),
    result.durationMs,
    result.status ?? null,
    result.outcome === 'success' ? 'success' : 'failure',
    result.outcome === 'gone' ? 'gone' : (result.errorClass ?? null),
    clip(errorOf(result)),
    result.responseExcerpt,
    nowIso,
  ];
}

/**
 * Why the endpoint is turned off by this batch, if it is: a 410; 20 failures in a row reached
 * before the batch's first success (as if each outcome had been written alone: the endpoint was
 * off before that success was recorded); or 20 after its last success.
 */
function turnOffReason(
  entry: EndpointTally,
  before: EndpointCounters | undefined,
  after: EndpointCounters,
  now: Date,
): { reason: DisableReason; failureCount: number } | undefined {
  if (entry.gone) return { reason: 'gone', failureCount: Number(after.failure_count) };
  if (entry.reset && entry.leading > 0 && before) {
    const peak = Number(before.failure_count) + entry.leading;
    if (shouldAutoDisable(peak, asIsoOrNull(before.last_success_at), now))
      return { reason: 'consecutive_failures', failureCount: peak };
  }
  const failureCount = Number(after.failure_count);
  if (entry.failures > 0 && shouldAutoDisable(failureCount, asIsoOrNull(after.last_success_at), now))
    return { reason: 'consecutive_failures', failureCount };
  return undefined;
}

/**
 * Writes the outcomes of finished attempts in one transaction. Statements: on SQLite the counter
 * UPDATEs, the delivery UPDATEs and the attempt INSERT one after another (no round trips there);
 * on PostgreSQL the endpoint lock, then everything else in one statement.
 */
export async function recordOutcomes(deps: AttemptDeps, outcomes: readonly Outcome[]): Promise<void> {
  const { services, workerId } = deps;
  if (outcomes.length === 0) return;
  const { dialect } = services.db;
  await withUnitsInOneTransaction(services, async (trx, unitFor) => {
    const now = services.clock.now();
    const nowIso = now.toISOString();
    const tallies = tally(outcomes);
    const endpointIds = [...tallies.keys()].sort();
    // The counters before the batch matter only when a success follows failures (turnOffReason).
    const peaks = endpointIds.filter((id) => {
      const entry = tallies.get(id);
      return entry?.reset === true && entry.leading > 0;
    });
    const postgres = dialect === 'postgres';
    const before = new Map<string, EndpointCounters>();
    if (postgres || peaks.length > 0) {
      for (const row of await lockEndpoints(trx, dialect, postgres ? endpointIds : peaks))
        before.set(row.id, row);
    }
    const settlements = outcomes.map((outcome) => settlementOf(deps, outcome, now));
    const attempts = outcomes.map((outcome) => attemptRowOf(outcome, nowIso));
    const after = new Map<string, EndpointCounters>();
    let moved = new Set<string>();
    if (postgres) {
      const written = await writeBatchOnPostgres(trx, {
        nowIso,
        counters: endpointIds.flatMap((id) => {
          const entry = tallies.get(id);
          return entry
            ? [{ id, organizationId: entry.organizationId, reset: entry.reset, failures: entry.failures }]
            : [];
        }),
        settle: settleAllOnPostgres(workerId, now, settlements),
        attempts,
      });
      for (const row of written.counters) after.set(row.id, row);
      moved = written.moved;
    } else {
      for (const group of counterGroups(tallies, endpointIds))
        for (const row of (await counterUpdate(dialect, group, nowIso).execute(trx)).rows)
          after.set(row.id, row);
      for (const update of settleUpdates(dialect, workerId, now, settlements))
        for (const row of (await update.execute(trx)).rows) moved.add(row.id);
      await attemptsInsert(attempts).execute(trx);
    }
    for (const { claimed } of outcomes) {
      if (moved.has(claimed.id)) continue;
      // The lease lapsed or the delivery was cancelled meanwhile; the attempt still happened.
      services.logger.warn(
        { deliveryId: claimed.id, attempt: claimed.attemptNumber },
        'webhook attempt finished after its delivery moved on; only the attempt is recorded',
      );
    }

    // Turning endpoints off (rare): a unit of the endpoint's organization, in this transaction.
    for (const endpointId of endpointIds) {
      const entry = tallies.get(endpointId);
      const counter = after.get(endpointId);
      if (!entry || !counter || (!entry.gone && entry.failures === 0 && entry.leading === 0)) continue;
      const turnOff = turnOffReason(entry, before.get(endpointId), counter, now);
      if (turnOff === undefined) continue;
      const unit = unitFor({
        organizationId: entry.organizationId,
        actor: { type: 'job', job: DELIVERY_JOB },
        operation: DELIVERY_JOB,
      });
      await disableEndpoint(unit, { endpointId, ...turnOff });
    }
  });
}
