// The webhook delivery queue: every write to `webhook_deliveries` is in this module (enqueue,
// claim, release, settle, cancel, requeue, purge), as graphile-worker keeps its queue's state
// changes in one place. Readers (the delivery log, metrics) may query the table directly.
//
// Claiming due deliveries with a lease (docs/webhooks-delivery.md, "Claiming").
//
// A delivery is claimable when it is pending, due (next_attempt_at <= now), has attempts left and
// holds no live lease (locked_until null or past). A claim sets the lease (locked_until, locked_by)
// and counts the attempt (attempt_count + 1 is this attempt's number, so two claims never share a
// number). A worker killed mid-attempt lets the lease lapse; the row becomes claimable again.
//
// PostgreSQL: every lock is taken with SKIP LOCKED, so a claimer never waits on another claimer (and
// never deadlocks); endpoint rows are locked FOR NO KEY UPDATE while their live leases are counted,
// which makes the per-endpoint cap exact across workers. SQLite: the claim runs in one BEGIN
// IMMEDIATE transaction (src/db/database.ts), which serializes claimers across processes.
import { type Insertable, type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { WebhookDeliveriesTable } from '../../db/tables/webhooks.ts';
import { asInt, dbBool } from '../../db/values.ts';
import type { RecordedEvent } from '../../events/recorder.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';

export type ClaimKind = 'first' | 'retry';

export interface ClaimOptions {
  now: Date;
  workerId: string;
  leaseMs: number;
  /** Most deliveries to claim in this call. */
  limit: number;
  /** 'first': never-tried deliveries; 'retry': the rest. Separate budgets (settings.ts). */
  kind: ClaimKind;
  /** In-flight attempts per endpoint, all workers together; retries get at most this - 1 (min 1). */
  endpointConcurrency: number;
  /** Attempts of a delivery whose attempt_limit is null (the retry schedule's length). */
  maxAttempts: number;
}

export interface ClaimedDelivery {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: string;
  /** This attempt's number: 1 for the first try. */
  attemptNumber: number;
  /** Attempts this delivery may have in all (the schedule's length, more after a manual retry). */
  attemptLimit: number;
  kind: ClaimKind;
  leaseUntil: string;
}

type Trx = Kysely<Database>;

function dueFilter(db: Trx, nowIso: string, options: ClaimOptions) {
  return db
    .selectFrom('webhook_deliveries as d')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', nowIso)]))
    .where('d.attempt_count', options.kind === 'first' ? '=' : '>', 0)
    .where(sql<boolean>`d.attempt_count < coalesce(d.attempt_limit, ${options.maxAttempts})`);
}

/** Retries may fill all but one of an endpoint's slots, so a first attempt always finds one. */
export function retryCap(endpointConcurrency: number): number {
  return Math.max(1, endpointConcurrency - 1);
}

/**
 * Claims up to `limit` due deliveries of one kind, at most `endpointConcurrency` in flight per
 * endpoint. Only deliveries of active endpoints are claimed. Returns the claimed deliveries.
 */
export async function claimDeliveries(db: Db, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const nowIso = options.now.toISOString();
  // A plain read first: an idle worker never opens a write transaction (SQLite's write lock).
  const any = await dueFilter(db.kysely, nowIso, options).select('d.id').limit(1).executeTakeFirst();
  if (!any) return [];
  const postgres = db.dialect === 'postgres';
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const cap = options.endpointConcurrency;
  const kindCap = options.kind === 'first' ? cap : retryCap(cap);
  return db.kysely.transaction().execute(async (trx) => {
    // Endpoints with due work, oldest first; endpoints already at their cap are left out here, so
    // a backlog of a slow endpoint never crowds healthy endpoints out of the candidate list.
    const busy = trx
      .selectFrom('webhook_deliveries as l')
      .select('l.endpoint_id')
      .where('l.status', '=', 'pending')
      .where('l.locked_until', '>=', nowIso)
      .groupBy('l.endpoint_id')
      .having((eb) =>
        eb.or([
          eb(eb.fn.countAll(), '>=', cap),
          eb(sql<number>`sum(case when l.attempt_count > 1 then 1 else 0 end)`, '>=', kindCap),
        ]),
      );
    const candidates = await dueFilter(trx, nowIso, options)
      .innerJoin('webhook_endpoints as e', (join) =>
        join.onRef('e.id', '=', 'd.endpoint_id').onRef('e.organization_id', '=', 'd.organization_id'),
      )
      .where('e.status', '=', 'active')
      .where('e.active', '=', dbBool(true))
      .where('d.endpoint_id', 'not in', busy)
      .select('d.endpoint_id')
      .groupBy('d.endpoint_id')
      .orderBy(sql`min(d.next_attempt_at)`)
      // More candidates than slots: racing claimers may hold (and so skip) some of them.
      .limit(options.limit * 2)
      .execute();
    if (candidates.length === 0) return [];
    let endpointIds = candidates.map((row) => row.endpoint_id);
    if (postgres) {
      // Another claimer holding an endpoint serves it; we skip it rather than wait.
      const locked = await trx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', 'in', endpointIds)
        .forNoKeyUpdate()
        .skipLocked()
        .execute();
      endpointIds = locked.map((row) => row.id);
      if (endpointIds.length === 0) return [];
    }
    // Live leases per endpoint, exact now that no other claimer can add any for these endpoints.
    const live = await trx
      .selectFrom('webhook_deliveries')
      .select((eb) => [
        'endpoint_id',
        eb.fn.countAll().as('total'),
        sql<number>`sum(case when attempt_count > 1 then 1 else 0 end)`.as('retries'),
      ])
      .where('endpoint_id', 'in', endpointIds)
      .where('status', '=', 'pending')
      .where('locked_until', '>=', nowIso)
      .groupBy('endpoint_id')
      .execute();
    const liveBy = new Map(live.map((row) => [row.endpoint_id, row]));
    const claimed: ClaimedDelivery[] = [];
    for (const endpointId of endpointIds) {
      const remaining = options.limit - claimed.length;
      if (remaining <= 0) break;
      const row = liveBy.get(endpointId);
      const total = asInt(row?.total ?? 0);
      const ofKind = options.kind === 'first' ? total : asInt(row?.retries ?? 0);
      const room = Math.min(cap - total, kindCap - ofKind, remaining);
      if (room <= 0) continue;
      const picks = dueFilter(trx, nowIso, options)
        .select('d.id')
        .where('d.endpoint_id', '=', endpointId)
        .orderBy('d.next_attempt_at')
        .orderBy('d.id')
        .limit(room);
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempt_count: eb('attempt_count', '+', 1),
          locked_until: leaseUntil,
          locked_by: options.workerId,
          updated_at: nowIso,
        }))
        .where('id', 'in', postgres ? picks.forUpdate().skipLocked() : picks)
        .returning(['id', 'organization_id', 'endpoint_id', 'event_id', 'attempt_count', 'attempt_limit'])
        .execute();
      for (const picked of rows) {
        claimed.push({
          id: picked.id,
          organizationId: picked.organization_id,
          endpointId: picked.endpoint_id,
          eventId: picked.event_id,
          attemptNumber: picked.attempt_count,
          attemptLimit: picked.attempt_limit ?? options.maxAttempts,
          kind: options.kind,
          leaseUntil,
        });
      }
    }
    return claimed;
  });
}

/**
 * Deliveries whose last allowed attempt was claimed by a worker that died before recording it:
 * nothing may be sent again, so they end as failed. Returns how many.
 */
export async function failAbandoned(db: Db, now: Date, maxAttempts: number): Promise<number> {
  const nowIso = now.toISOString();
  const exhausted = sql<boolean>`attempt_count >= coalesce(attempt_limit, ${maxAttempts})`;
  // Read first: the common case (none) must not take SQLite's write lock on every poll.
  const any = await db.kysely
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where('locked_until', '<', nowIso)
    .where(exhausted)
    .limit(1)
    .executeTakeFirst();
  if (!any) return 0;
  const result = await db.kysely
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      locked_until: null,
      locked_by: null,
      last_error: 'the worker stopped during the last attempt; no answer was recorded',
      updated_at: nowIso,
      completed_at: nowIso,
    })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where('locked_until', '<', nowIso)
    .where(exhausted)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A new delivery of `event` to one endpoint, due at once (attempt 1 is immediate). */
export function pendingDelivery(
  event: RecordedEvent,
  endpointId: string,
): Insertable<WebhookDeliveriesTable> {
  return {
    id: newId(),
    organization_id: event.organizationId,
    endpoint_id: endpointId,
    event_id: event.id,
    status: 'pending',
    attempt_count: 0,
    attempt_limit: null,
    next_attempt_at: event.createdAt,
    locked_until: null,
    locked_by: null,
    last_status_code: null,
    last_error: null,
    created_at: event.createdAt,
    updated_at: event.createdAt,
    completed_at: null,
  };
}

/** Inserts one pending delivery of `event` per endpoint, in the event's transaction. */
export async function enqueueDeliveries(
  db: Kysely<Database>,
  event: RecordedEvent,
  endpointIds: readonly string[],
): Promise<string[]> {
  const rows = endpointIds.map((endpointId) => pendingDelivery(event, endpointId));
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((row) => row.id ?? '');
}

const ERROR_CHARS = 500;

/** Error texts kept on a delivery or attempt are clipped to 500 characters. */
export function clip(text: string | undefined | null): string | null {
  return text === undefined || text === null || text === '' ? null : text.slice(0, ERROR_CHARS);
}

/** Only the holder of the lease (same worker, same attempt, still pending) may move the delivery. */
function fenced(db: Kysely<Database>, claimed: ClaimedDelivery, workerId: string) {
  return db
    .updateTable('webhook_deliveries')
    .where('id', '=', claimed.id)
    .where('organization_id', '=', claimed.organizationId)
    .where('status', '=', 'pending')
    .where('locked_by', '=', workerId)
    .where('attempt_count', '=', claimed.attemptNumber);
}

/** Gives a claim back without counting the attempt (nothing was sent). */
export async function releaseClaim(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  workerId: string,
  next: { nextAttemptAt: Date; error: string | null },
): Promise<void> {
  await fenced(db, claimed, workerId)
    .set((eb) => ({
      attempt_count: eb('attempt_count', '-', 1),
      locked_until: null,
      locked_by: null,
      next_attempt_at: next.nextAttemptAt.toISOString(),
      ...(next.error === null ? {} : { last_error: clip(next.error) }),
    }))
    .execute();
}

/**
 * Moves a claimed delivery after its attempt: succeeded/failed (completed) or back to pending at
 * `nextAttemptAt`. False when the lease was no longer ours (lapsed, or cancelled meanwhile).
 */
export async function settleAttempt(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  workerId: string,
  next: {
    status: 'succeeded' | 'failed' | 'pending';
    statusCode: number | null;
    error: string | null;
    now: Date;
    nextAttemptAt: Date | null;
  },
): Promise<boolean> {
  const nowIso = next.now.toISOString();
  const moved = await fenced(db, claimed, workerId)
    .set({
      status: next.status,
      locked_until: null,
      locked_by: null,
      last_status_code: next.statusCode,
      last_error: next.error,
      updated_at: nowIso,
      ...(next.status === 'pending' && next.nextAttemptAt !== null
        ? { next_attempt_at: next.nextAttemptAt.toISOString() }
        : { completed_at: nowIso }),
    })
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Cancels an endpoint's pending deliveries (including leased ones: the worker re-checks status). */
export async function cancelPendingDeliveries(unit: UnitOfWork, endpointId: string, reason: string) {
  const now = unit.clock.now().toISOString();
  const result = await unit.db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, completed_at: now, updated_at: now })
    .where('organization_id', '=', unit.organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Puts a finished delivery back in the queue, due now, with at least one more attempt; a
 * compare-and-set on its status, so of two concurrent retries one wins (false for the other).
 */
export async function requeueDelivery(
  unit: UnitOfWork,
  delivery: { id: string; status: string; attemptCount: number },
  at: { scheduleLength: number; now: string },
): Promise<boolean> {
  const { scheduleLength, now } = at;
  const updated = await unit.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      // At least one more attempt; a delivery cancelled early keeps the rest of its schedule.
      attempt_limit: Math.max(delivery.attemptCount + 1, scheduleLength),
      next_attempt_at: now,
      locked_until: null,
      locked_by: null,
      completed_at: null,
      updated_at: now,
    })
    .where('id', '=', delivery.id)
    .where('organization_id', '=', unit.organizationId)
    .where('status', '=', delivery.status)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Deletes the deliveries of purged events (their attempts are deleted first by the caller). */
export async function deleteDeliveriesOfEvents(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length > 0)
    await db.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
}
