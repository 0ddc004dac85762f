import { sql } from 'kysely';
import { PREPARED } from '../../../db/pg-prepared.ts';
import type { ClaimRow } from './claim-row.ts';
import {
  type Candidates,
  type Claim,
  claimableRows,
  FIRST_KIND,
  holdOf,
  PENDING,
  RETRY_KIND,
  retryCap,
  type Trx,
} from './claimable.ts';

/**
 * PostgreSQL: a transaction of two statements, each of one fixed text per kind, so both run as
 * named prepared statements (planned once per connection; planning the claim afresh cost about a
 * millisecond of the server's time per claim). The first locks the candidate endpoints (another
 * claimer holding one serves it: SKIP LOCKED). The second counts their live leases, gives each
 * endpoint its share of the limit (oldest due endpoint first), claims the shares and reads the
 * claimed deliveries' events and endpoints. The count is exact because that statement's snapshot
 * is taken after the endpoints were locked: no other claimer can add a lease for them meanwhile.
 */
export async function claimOnPostgres(db: Trx, candidates: Candidates, claim: Claim): Promise<ClaimRow[]> {
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
