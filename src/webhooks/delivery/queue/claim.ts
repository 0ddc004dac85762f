// Claiming due deliveries with a lease (docs/webhooks-delivery.md, "Claiming"): one read finds the
// candidate endpoints, then one transaction claims every endpoint's share at once.
//
// PostgreSQL: every lock is taken with SKIP LOCKED, so a claimer never waits on another claimer (and
// never deadlocks); endpoint rows are locked FOR NO KEY UPDATE while their live leases are counted,
// which makes the per-endpoint cap exact across workers. SQLite: the claim runs in one BEGIN
// IMMEDIATE transaction (src/db/database.ts), which serializes claimers across processes.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { PREPARED } from '../../../db/pg-prepared.ts';
import { asInt, dbBool } from '../../../db/values.ts';
import { claimOnPostgres } from './claim-postgres.ts';
import { contextOf } from './claim-row.ts';
import { claimOnSqlite } from './claim-sqlite.ts';
import {
  type ClaimedDelivery,
  type ClaimOptions,
  claimableRows,
  FIRST_KIND,
  holdOf,
  PENDING,
  RETRY_KIND,
  roomOf,
} from './claimable.ts';

interface Candidate {
  endpoint_id: string;
  due_at: string;
  /** Claimable rows of this kind, counted up to the endpoint's cap. */
  available: number | string;
  live: number | string;
  live_retries: number | string;
  /** Live leases held by other workers. */
  live_others: number | string;
}

/**
 * Endpoints with claimable work of one kind, oldest due first, with their live leases; the plain
 * read before the claim (an idle worker never opens a write transaction). Its cost depends on the
 * endpoints with pending work, never on how many rows wait: the endpoints are found by skipping
 * through the kind's partial index from one endpoint to the next, and each endpoint's due rows
 * (at most `cap`) and live leases by seeks (migration 0017).
 */
async function findCandidates(db: Db, nowIso: string, options: ClaimOptions): Promise<Candidate[]> {
  const kind = options.kind === 'first' ? FIRST_KIND : RETRY_KIND;
  const claimable = claimableRows(kind, sql`${nowIso}`, options.maxAttempts);
  // PostgreSQL: a named prepared statement (one text per kind), planned once per connection.
  const prepared = sql.raw(db.dialect === 'postgres' ? PREPARED : '');
  const most = holdOf(options);
  const result = await sql<Candidate>`${prepared}
    with recursive eps(endpoint_id) as (
      select (select d.endpoint_id from webhook_deliveries d
              where d.status = ${PENDING} and ${kind} order by d.endpoint_id limit 1)
      union all
      select (select d.endpoint_id from webhook_deliveries d
              where d.status = ${PENDING} and ${kind} and d.endpoint_id > eps.endpoint_id
              order by d.endpoint_id limit 1)
      from eps where eps.endpoint_id is not null
    )
    select c.* from (
      select e.id as endpoint_id,
        (select d.next_attempt_at from webhook_deliveries d
          where d.endpoint_id = e.id and ${claimable}
          order by d.next_attempt_at limit 1) as due_at,
        (select count(*) from (select 1 from webhook_deliveries d
          where d.endpoint_id = e.id and ${claimable}
          order by d.next_attempt_at limit ${most}) as a) as available,
        (select count(*) from webhook_deliveries l
          where l.endpoint_id = e.id and l.status = ${PENDING} and l.locked_until >= ${nowIso}) as live,
        (select count(*) from webhook_deliveries l
          where l.endpoint_id = e.id and l.status = ${PENDING} and l.locked_until >= ${nowIso}
            and l.attempt_count > 1) as live_retries,
        (select count(*) from webhook_deliveries l
          where l.endpoint_id = e.id and l.status = ${PENDING} and l.locked_until >= ${nowIso}
            and l.locked_by <> ${options.workerId}) as live_others
      from eps
      join webhook_endpoints e on e.id = eps.endpoint_id
      where e.status = 'active' and e.active = ${dbBool(true)}
    ) c
    where c.due_at is not null
    order by c.due_at`.execute(db.kysely);
  return result.rows;
}

/**
 * Claims up to `limit` due deliveries of one kind, at most `endpointConcurrency` in flight per
 * endpoint. Only deliveries of active endpoints are claimed. Returns the claimed deliveries.
 *
 * Statements: one read (candidates; the only one when nothing is due), then one transaction: on
 * PostgreSQL the endpoint lock and one statement that counts, claims and reads (claimOnPostgres),
 * on SQLite the count and one UPDATE (claimOnSqlite). Either claims every endpoint's share at once,
 * whatever the backlog.
 */
export async function claimDeliveries(db: Db, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const nowIso = options.now.toISOString();
  // Endpoints already at their cap are left out here, so a backlog of a slow endpoint never
  // crowds healthy endpoints out; more endpoints than needed, since racing claimers may hold some.
  // Candidate endpoints, oldest due first, each with its claimable rows as the read counted them (at
  // most what it may hold): a share never exceeds them, so endpoints with one due row do not use up
  // the limit for the others.
  const candidates = new Map<string, number>();
  let offered = 0;
  for (const row of await findCandidates(db, nowIso, options)) {
    const live = { total: asInt(row.live), retries: asInt(row.live_retries), others: asInt(row.live_others) };
    const room = Math.min(roomOf(options, live), asInt(row.available));
    if (room <= 0) continue;
    candidates.set(row.endpoint_id, asInt(row.available));
    offered += room;
    if (offered >= options.limit * 2) break;
  }
  if (candidates.size === 0) return [];
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const claim = { ...options, nowIso, leaseUntil };
  const rows =
    db.dialect === 'postgres'
      ? await claimOnPostgres(db.kysely, candidates, claim)
      : await claimOnSqlite(db.kysely, candidates, claim);
  // Oldest due endpoint first, as the candidates came.
  const order = new Map([...candidates.keys()].map((endpointId, index) => [endpointId, index]));
  rows.sort((a, b) => (order.get(a.endpoint_id) ?? 0) - (order.get(b.endpoint_id) ?? 0));
  return rows.map((picked) => ({
    id: picked.id,
    organizationId: picked.organization_id,
    endpointId: picked.endpoint_id,
    eventId: picked.event_id,
    attemptNumber: picked.attempt_count,
    attemptLimit: picked.attempt_limit ?? options.maxAttempts,
    kind: options.kind,
    leaseUntil,
    ...(db.dialect === 'postgres' ? { context: contextOf(picked) } : {}),
  }));
}
