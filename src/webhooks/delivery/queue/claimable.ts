// What a claim may take (docs/webhooks-delivery.md, "Claiming"): a delivery is claimable when it
// is pending, due (next_attempt_at <= now), has attempts left and holds no live lease (locked_until
// null or past). A claim sets the lease (locked_until, locked_by) and counts the attempt
// (attempt_count + 1 is this attempt's number, so two claims never share a number). A worker killed
// mid-attempt lets the lease lapse; the row becomes claimable again. This file holds the rules both
// databases' claims share: the claimable rows, the per-endpoint room and the claimed delivery.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AttemptContext } from '../attempt.ts';

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
  /**
   * First attempts: leases of one endpoint this worker may hold when no other worker holds any
   * (settings.ts endpointHold; it sends at most endpointConcurrency of them at once). Default and
   * minimum: endpointConcurrency.
   */
  endpointHold?: number;
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
  /**
   * The event and endpoint as the claim read them (PostgreSQL: in the claim's statement; null when
   * either is gone); undefined when the claim did not read them (SQLite: loadAttemptContexts does).
   */
  context?: AttemptContext | null;
}

export type Trx = Kysely<Database>;

// Written as literals, not bound parameters: SQLite uses a partial index only when the query
// repeats the index's condition literally (migration 0017-webhook-claim).
export const PENDING = sql.lit('pending');
export const FIRST_KIND = sql<boolean>`d.attempt_count = ${sql.lit(0)}`;
export const RETRY_KIND = sql<boolean>`d.attempt_count > ${sql.lit(0)}`;

/**
 * Rows of `kind` (aliased `d`) a claim may take now: pending, due, no live lease, attempts left.
 * Its literals (`PENDING`, the kind) stay literals so the planner can use the kind's partial index.
 */
export function claimableRows(
  kind: RawBuilder<boolean>,
  now: RawBuilder<unknown>,
  maxAttempts: number,
): RawBuilder<boolean> {
  return sql<boolean>`d.status = ${PENDING} and ${kind} and d.next_attempt_at <= ${now}
    and (d.locked_until is null or d.locked_until < ${now})
    and d.attempt_count < coalesce(d.attempt_limit, ${maxAttempts})`;
}

/** Retries may fill all but one of an endpoint's slots, so a first attempt always finds one. */
export function retryCap(endpointConcurrency: number): number {
  return Math.max(1, endpointConcurrency - 1);
}

/** An endpoint's live leases: all, the retries among them, and those of other workers. */
export interface LiveLeases {
  total: number;
  retries: number;
  others: number;
}

/**
 * Leases of this kind a claim may add for an endpoint. Retries: up to one less than the cap.
 * First attempts: up to the cap, or up to endpointHold while no other worker holds a lease of the
 * endpoint: then only this worker sends to it, and it sends at most the cap at once (send-turns.ts),
 * so the cap on requests in flight stays exact across workers.
 */
export function roomOf(options: ClaimOptions, live: LiveLeases): number {
  const cap = options.endpointConcurrency;
  if (options.kind === 'retry') return Math.min(cap - live.total, retryCap(cap) - live.retries);
  return (live.others === 0 ? holdOf(options) : cap) - live.total;
}

/** The most leases of one endpoint a claim of this kind may leave this worker holding. */
export function holdOf(options: ClaimOptions): number {
  const cap = options.endpointConcurrency;
  return options.kind === 'first' ? Math.max(cap, options.endpointHold ?? cap) : cap;
}

export type Claim = ClaimOptions & { nowIso: string; leaseUntil: string };
/** Candidate endpoint ids, oldest due first, each with its claimable rows as the read counted them. */
export type Candidates = ReadonlyMap<string, number>;
