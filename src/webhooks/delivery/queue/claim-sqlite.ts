import { sql } from 'kysely';
import { asInt } from '../../../db/values.ts';
import type { ClaimRow } from './claim-row.ts';
import {
  type Candidates,
  type Claim,
  claimableRows,
  FIRST_KIND,
  PENDING,
  RETRY_KIND,
  roomOf,
  type Trx,
} from './claimable.ts';

/**
 * SQLite: one BEGIN IMMEDIATE transaction (which serializes claimers across processes) with the
 * exact live-lease count and one UPDATE that claims every endpoint's share at once, whatever the
 * backlog. The events and endpoints are read after it (loadAttemptContexts): SQLite cannot put an
 * UPDATE in a WITH clause.
 */
export async function claimOnSqlite(db: Trx, candidates: Candidates, claim: Claim): Promise<ClaimRow[]> {
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
