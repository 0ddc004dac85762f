import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { ClaimedDelivery } from './claimable.ts';

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
