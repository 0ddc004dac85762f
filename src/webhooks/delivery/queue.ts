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
import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { PREPARED } from '../../db/pg-prepared.ts';
import type { Database } from '../../db/schema.ts';
import type { WebhookDeliveriesTable } from '../../db/tables/webhooks.ts';
import { asInt, dbBool } from '../../db/values.ts';
import type { RecordedEvent } from '../../events/recorder.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import type { AttemptContext } from './attempt.ts';

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

type Trx = Kysely<Database>;

// Written as literals, not bound parameters: SQLite uses a partial index only when the query
// repeats the index's condition literally (migration 0017-webhook-claim).
const PENDING = sql.lit('pending');
const FIRST_KIND = sql<boolean>`d.attempt_count = ${sql.lit(0)}`;
const RETRY_KIND = sql<boolean>`d.attempt_count > ${sql.lit(0)}`;

/**
 * Rows of `kind` (aliased `d`) a claim may take now: pending, due, no live lease, attempts left.
 * Its literals (`PENDING`, the kind) stay literals so the planner can use the kind's partial index.
 */
function claimableRows(
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

/** An endpoint's live leases: all, the retries among them, and those of other workers. */
interface LiveLeases {
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
function roomOf(options: ClaimOptions, live: LiveLeases): number {
  const cap = options.endpointConcurrency;
  if (options.kind === 'retry') return Math.min(cap - live.total, retryCap(cap) - live.retries);
  return (live.others === 0 ? holdOf(options) : cap) - live.total;
}

/** The most leases of one endpoint a claim of this kind may leave this worker holding. */
function holdOf(options: ClaimOptions): number {
  const cap = options.endpointConcurrency;
  return options.kind === 'first' ? Math.max(cap, options.endpointHold ?? cap) : cap;
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

type Claim = ClaimOptions & { nowIso: string; leaseUntil: string };
/** Candidate endpoint ids, oldest due first, each with its claimable rows as the read counted them. */
type Candidates = ReadonlyMap<string, number>;

/**
 * PostgreSQL: a transaction of two statements, each of one fixed text per kind, so both run as
 * named prepared statements (planned once per connection; planning the claim afresh cost about a
 * millisecond of the server's time per claim). The first locks the candidate endpoints (another
 * claimer holding one serves it: SKIP LOCKED). The second counts their live leases, gives each
 * endpoint its share of the limit (oldest due endpoint first), claims the shares and reads the
 * claimed deliveries' events and endpoints. The count is exact because that statement's snapshot
 * is taken after the endpoints were locked: no other claimer can add a lease for them meanwhile.
 */
async function claimOnPostgres(db: Trx, candidates: Candidates, claim: Claim): Promise<ClaimRow[]> {
  const retry = claim.kind === 'retry';
  const kind = retry ? RETRY_KIND : FIRST_KIND;
  const claimable = claimableRows(kind, sql`${claim.nowIso}::timestamptz`, claim.maxAttempts);
  // roomOf, in SQL.
  const cap = claim.endpointConcurrency;
  const room = retry
    ? sql`least(${cap}::int - coalesce(live.total, 0), ${retryCap(cap)}::int - coalesce(live.retries, 0))`
    : sql`(case when coalesce(live.others, 0) = 0 then ${holdOf(claim)}::int else ${cap}::int end)
        - coalesce(live.total, 0)`;
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ id: string }>`${sql.raw(PREPARED)}select id from webhook_endpoints
      where id = any(${[...candidates.keys()]}::uuid[]) for no key update skip locked`.execute(trx);
    const held = new Set(locked.map((row) => row.id));
    const endpointIds = [...candidates.keys()].filter((id) => held.has(id));
    if (endpointIds.length === 0) return [];
    const { rows } = await sql<ClaimRow>`${sql.raw(PREPARED)}with
      eps as (select e.id, e.available, e.ord
        from unnest(${endpointIds}::uuid[], ${endpointIds.map((id) => candidates.get(id) ?? 0)}::int[])
          with ordinality as e(id, available, ord)),
      live as (
        select l.endpoint_id, count(*) as total, count(*) filter (where l.attempt_count > 1) as retries,
          count(*) filter (where l.locked_by <> ${claim.workerId}) as others
        from webhook_deliveries l
        where l.endpoint_id = any(${endpointIds}::uuid[]) and l.status = ${PENDING}
          and l.locked_until >= ${claim.nowIso}::timestamptz
        group by l.endpoint_id),
      room as (
        select eps.id, eps.ord, greatest(0, least(eps.available, ${room})) as room
        from eps left join live on live.endpoint_id = eps.id),
      shares as (
        select room.id, greatest(0, least(room.room, ${claim.limit}::int - coalesce(sum(room.room)
          over (order by room.ord rows between unbounded preceding and 1 preceding), 0))) as share
        from room),
      picked as (
        select p.id from shares s cross join lateral (
          select d.id from webhook_deliveries d
          where ${claimable} and d.endpoint_id = s.id
          order by d.next_attempt_at, d.id limit s.share for update skip locked) p
        where s.share > 0),
      c as (
        update webhook_deliveries
        set attempt_count = attempt_count + 1, locked_until = ${claim.leaseUntil}::timestamptz,
          locked_by = ${claim.workerId}, updated_at = ${claim.nowIso}::timestamptz
        where id in (select id from picked)
        returning id, organization_id, endpoint_id, event_id, attempt_count, attempt_limit)
      select c.*, ev.id as ev_id, ev.type as ev_type, ev.organization_id as ev_organization_id,
        ev.subject_type as ev_subject_type, ev.subject_id as ev_subject_id, ev.data as ev_data,
        ev.created_at as ev_created_at, ep.url as ep_url, ep.secret as ep_secret,
        ep.previous_secret as ep_previous_secret, ep.previous_secret_until as ep_previous_secret_until,
        ep.status as ep_status
      from c
      left join events ev on ev.id = c.event_id and ev.organization_id = c.organization_id
      left join webhook_endpoints ep on ep.id = c.endpoint_id and ep.organization_id = c.organization_id`.execute(
      trx,
    );
    return rows;
  });
}

/**
 * SQLite: one BEGIN IMMEDIATE transaction (which serializes claimers across processes) with the
 * exact live-lease count and one UPDATE that claims every endpoint's share at once, whatever the
 * backlog. The events and endpoints are read after it (loadAttemptContexts): SQLite cannot put an
 * UPDATE in a WITH clause.
 */
async function claimOnSqlite(db: Trx, candidates: Candidates, claim: Claim): Promise<ClaimRow[]> {
  const endpointIds = [...candidates.keys()];
  return db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom('webhook_deliveries as l')
      .select((eb) => [
        'l.endpoint_id',
        eb.fn.countAll().as('total'),
        sql<number>`sum(case when l.attempt_count > 1 then 1 else 0 end)`.as('retries'),
        sql<number>`sum(case when l.locked_by <> ${claim.workerId} then 1 else 0 end)`.as('others'),
      ])
      .where('l.endpoint_id', 'in', endpointIds)
      .where('l.status', '=', PENDING)
      .where('l.locked_until', '>=', claim.nowIso)
      .groupBy('l.endpoint_id')
      .execute();
    const liveBy = new Map(live.map((row) => [row.endpoint_id, row]));
    // Each endpoint's share, oldest due endpoint first, until the limit is reached.
    const shares: Array<[string, number]> = [];
    let remaining = claim.limit;
    for (const endpointId of endpointIds) {
      if (remaining <= 0) break;
      const row = liveBy.get(endpointId);
      const room = Math.min(
        roomOf(claim, {
          total: asInt(row?.total ?? 0),
          retries: asInt(row?.retries ?? 0),
          others: asInt(row?.others ?? 0),
        }),
        candidates.get(endpointId) ?? 0,
        remaining,
      );
      if (room <= 0) continue;
      shares.push([endpointId, room]);
      remaining -= room;
    }
    // One arm per endpoint: its oldest due rows, up to its share, read by one index range each.
    // Written as one SQL template rather than built: composing a query builder per arm (and
    // compiling it) cost more CPU than the UPDATE itself, for a statement of a fixed shape.
    const claimable = claimableRows(
      claim.kind === 'first' ? FIRST_KIND : RETRY_KIND,
      sql`${claim.nowIso}`,
      claim.maxAttempts,
    );
    const arms = shares.map(
      ([endpointId, room], index) => sql`select ${sql.ref(`p${index}.id`)} from (
        select d.id from webhook_deliveries d
        where ${claimable} and d.endpoint_id = ${endpointId}
        order by d.next_attempt_at, d.id limit ${room}) as ${sql.id(`p${index}`)}`,
    );
    if (arms.length === 0) return [];
    const { rows } = await sql<ClaimRow>`update webhook_deliveries
      set attempt_count = attempt_count + 1, locked_until = ${claim.leaseUntil},
        locked_by = ${claim.workerId}, updated_at = ${claim.nowIso}
      where id in (${sql.join(arms, sql` union all `)})
      returning id, organization_id, endpoint_id, event_id, attempt_count, attempt_limit`.execute(trx);
    return rows;
  });
}

/** The claim UPDATE's row; the `ev_` and `ep_` columns only on PostgreSQL, null when gone. */
interface ClaimRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  attempt_limit: number | null;
  ev_id?: string | null;
  ev_type?: AttemptContext['type'] | null;
  ev_organization_id?: string | null;
  ev_subject_type?: AttemptContext['subject_type'];
  ev_subject_id?: AttemptContext['subject_id'];
  ev_data?: AttemptContext['data'];
  ev_created_at?: AttemptContext['created_at'];
  ep_url?: string | null;
  ep_secret?: string | null;
  ep_previous_secret?: AttemptContext['previous_secret'];
  ep_previous_secret_until?: AttemptContext['previous_secret_until'];
  ep_status?: AttemptContext['endpoint_status'] | null;
}

/** The claimed delivery's event and endpoint, in the shape of attempt.ts's context query. */
function contextOf(row: ClaimRow): AttemptContext | null {
  if (
    row.ev_id == null ||
    row.ev_type == null ||
    row.ev_organization_id == null ||
    row.ep_url == null ||
    row.ep_secret == null ||
    row.ep_status == null
  )
    return null;
  return {
    delivery_id: row.id,
    id: row.ev_id,
    type: row.ev_type,
    organization_id: row.ev_organization_id,
    subject_type: row.ev_subject_type ?? null,
    subject_id: row.ev_subject_id ?? null,
    data: row.ev_data as AttemptContext['data'],
    created_at: row.ev_created_at as AttemptContext['created_at'],
    url: row.ep_url,
    secret: row.ep_secret,
    previous_secret: row.ep_previous_secret ?? null,
    previous_secret_until: row.ep_previous_secret_until ?? null,
    endpoint_status: row.ep_status,
  };
}

/**
 * Deliveries whose last allowed attempt was claimed by a worker that died before recording it:
 * nothing may be sent again, so they end as failed. Returns how many. Reads leased rows only
 * (the partial index of migration 0017), never the backlog.
 */
export async function failAbandoned(db: Db, now: Date, maxAttempts: number): Promise<number> {
  const nowIso = now.toISOString();
  const exhausted = sql<boolean>`attempt_count >= coalesce(attempt_limit, ${maxAttempts})`;
  // Read first: the common case (none) must not take SQLite's write lock on every poll.
  const any = await db.kysely
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', PENDING)
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
    .where('status', '=', PENDING)
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
 * Extends a claim's lease while it is still ours (same worker, same attempt, still pending): a held
 * delivery before it is sent (attempt.ts). False when it is not ours any more (cancelled, or the
 * lease lapsed and another worker claimed it): then nothing may be sent.
 */
export async function renewLease(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  workerId: string,
  leaseUntil: Date,
): Promise<boolean> {
  const result = await fenced(db, claimed, workerId)
    .set({ locked_until: leaseUntil.toISOString() })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Where one attempt leaves its delivery. */
export interface Settlement {
  claimed: ClaimedDelivery;
  /** succeeded/failed (completed), or pending again at `nextAttemptAt`. */
  status: 'succeeded' | 'failed' | 'pending';
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

/**
 * `column` is one of `ids`, as one bound parameter whatever their number: a JSON array read by
 * `json_each` on SQLite, a uuid array on PostgreSQL. The statement's text then never changes with
 * the batch size, so SQLite's statement cache (src/db/statement-cache.ts) keeps one prepared
 * statement instead of one per list length, and every element is a primary-key lookup.
 */
export function inIdList(dialect: Db['dialect'], column: RawBuilder<unknown>, ids: readonly string[]) {
  return dialect === 'postgres'
    ? sql<boolean>`${column} = any(${ids}::uuid[])`
    : sql<boolean>`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
}

/**
 * The organization column of a statement that finds its rows by primary key. On SQLite it is
 * written `+organization_id`, which keeps the term from choosing an index: without statistics
 * SQLite preferred `(organization_id, created_at, id)` to the primary key for ten ids or more and
 * read every delivery of the organization per UPDATE. The term still scopes the rows.
 */
export function organizationColumn(dialect: Db['dialect']): RawBuilder<unknown> {
  return dialect === 'sqlite' ? sql`+organization_id` : sql`organization_id`;
}

/**
 * The UPDATEs that move claimed deliveries after their attempts, each fenced exactly as alone: a
 * row moves only while its lease is still ours (same worker, same attempt, still pending). Rows
 * that end the same way share one UPDATE (a batch of successes is one statement); each returns the
 * ids that moved. SQL templates, not query builders: building and compiling them cost more CPU
 * than running them.
 */
export function settleUpdates(
  dialect: Db['dialect'],
  workerId: string,
  now: Date,
  settlements: readonly Settlement[],
): RawBuilder<{ id: string }>[] {
  const nowIso = now.toISOString();
  const groups = new Map<string, Settlement[]>();
  for (const item of settlements) {
    const next = item.status === 'pending' ? (item.nextAttemptAt?.toISOString() ?? null) : null;
    const key = JSON.stringify([
      item.claimed.organizationId,
      item.claimed.attemptNumber,
      item.status,
      item.statusCode,
      item.error,
      next,
    ]);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const updates: RawBuilder<{ id: string }>[] = [];
  for (const group of groups.values()) {
    const [head] = group;
    if (!head) continue;
    const { claimed } = head;
    const ending =
      head.status === 'pending' && head.nextAttemptAt !== null
        ? sql`next_attempt_at = ${head.nextAttemptAt.toISOString()}`
        : sql`completed_at = ${nowIso}`;
    const ids = group.map((item) => item.claimed.id);
    updates.push(sql<{ id: string }>`update webhook_deliveries
      set status = ${head.status}, locked_until = null, locked_by = null,
        last_status_code = ${head.statusCode}, last_error = ${head.error}, updated_at = ${nowIso}, ${ending}
      where ${inIdList(dialect, sql`id`, ids)}
        and ${organizationColumn(dialect)} = ${claimed.organizationId} and status = ${'pending'}
        and locked_by = ${workerId} and attempt_count = ${claimed.attemptNumber}
      returning id`);
  }
  return updates;
}

/**
 * PostgreSQL: every move of a batch in ONE UPDATE of one fixed text, whatever the batch holds (it
 * runs inside outcome-sql.ts's prepared statement, planned once per connection). Each row carries
 * its own fence and new state in arrays, one element per delivery: it moves only while its lease is
 * still ours, exactly as settleUpdates fences it. Returns the ids that moved.
 */
export function settleAllOnPostgres(
  workerId: string,
  now: Date,
  settlements: readonly Settlement[],
): RawBuilder<{ id: string }> {
  const nowIso = now.toISOString();
  const ids = settlements.map((item) => item.claimed.id);
  const organizations = settlements.map((item) => item.claimed.organizationId);
  const attempts = settlements.map((item) => item.claimed.attemptNumber);
  const statuses = settlements.map((item) => item.status);
  const codes = settlements.map((item) => item.statusCode);
  const errors = settlements.map((item) => item.error);
  // A next attempt keeps the delivery open; without one it is completed now.
  const next = settlements.map((item) =>
    item.status === 'pending' && item.nextAttemptAt !== null ? item.nextAttemptAt.toISOString() : null,
  );
  return sql<{ id: string }>`update webhook_deliveries d
    set status = v.status, locked_until = null, locked_by = null, last_status_code = v.status_code,
      last_error = v.error, updated_at = ${nowIso}::timestamptz,
      next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at),
      completed_at = case when v.next_attempt_at is null then ${nowIso}::timestamptz else d.completed_at end
    from unnest(${ids}::uuid[], ${organizations}::uuid[], ${attempts}::int[], ${statuses}::text[],
        ${codes}::int[], ${errors}::text[], ${next}::timestamptz[])
      as v(id, organization_id, attempt_number, status, status_code, error, next_attempt_at)
    where d.id = v.id and d.organization_id = v.organization_id and d.status = ${'pending'}
      and d.locked_by = ${workerId} and d.attempt_count = v.attempt_number
    returning d.id`;
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

/** "Retry now": a pending delivery not in flight becomes due at once (false when it is in flight). */
export async function makePendingDueNow(unit: UnitOfWork, deliveryId: string, now: string): Promise<boolean> {
  const updated = await unit.db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', '=', deliveryId)
    .where('organization_id', '=', unit.organizationId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Every failed delivery of an endpoint created at or after `since`, requeued like requeueDelivery. */
export async function requeueFailedSince(
  unit: UnitOfWork,
  endpointId: string,
  since: string,
  at: { scheduleLength: number; now: string },
): Promise<number> {
  const { scheduleLength, now } = at;
  const result = await unit.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      attempt_limit: sql<number>`case when attempt_count + 1 > ${scheduleLength} then attempt_count + 1 else ${scheduleLength} end`,
      next_attempt_at: now,
      locked_until: null,
      locked_by: null,
      completed_at: null,
      updated_at: now,
    })
    .where('organization_id', '=', unit.organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(updated(result));
}

function updated(result: { numUpdatedRows: bigint }): bigint {
  return result.numUpdatedRows;
}

/** Deletes the deliveries of purged events (their attempts are deleted first by the caller). */
export async function deleteDeliveriesOfEvents(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length > 0)
    await db.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
}
