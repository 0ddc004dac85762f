import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { PENDING } from './claimable.ts';

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
