import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';

/** Events removed per transaction: keeps each purge transaction short under a large backlog. */
const BATCH = 500;

/**
 * Retention of the event log (docs/webhooks.md, "Retention"): events older than `days`, with their
 * deliveries and attempts, are deleted in batches. An event that still has a pending delivery
 * (a retry due, or one retried by hand from the log) is kept until that delivery ends.
 * Returns the number of events deleted.
 */
export async function purgeExpiredEvents(db: Db, now: Date, days: number, maxBatches = 20): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY).toISOString();
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const removed = await db.kysely.transaction().execute((trx) => purgeBatch(trx, db.dialect, cutoff));
    deleted += removed;
    if (removed < BATCH) break;
  }
  return deleted;
}

async function purgeBatch(trx: Kysely<Database>, dialect: Db['dialect'], cutoff: string): Promise<number> {
  const candidates = (
    await trx
      .selectFrom('events')
      .select('id')
      .where('created_at', '<', cutoff)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as d')
              .select('d.id')
              .whereRef('d.event_id', '=', 'events.id')
              .where('d.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(BATCH)
      .execute()
  ).map((row) => row.id);
  if (candidates.length === 0) return 0;

  // Check again under lock (PostgreSQL; SQLite's writer is already exclusive): a concurrent
  // `webhooks.deliveries.retry` either committed first, and its event is kept, or waits and then
  // finds nothing to retry.
  let deliveries = trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('event_id', 'in', candidates);
  if (dialect === 'postgres') deliveries = deliveries.forUpdate();
  const rows = await deliveries.execute();
  const kept = new Set(rows.filter((row) => row.status === 'pending').map((row) => row.event_id));
  const events = candidates.filter((id) => !kept.has(id));
  const deliveryIds = rows.filter((row) => !kept.has(row.event_id)).map((row) => row.id);
  if (deliveryIds.length > 0) {
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveryIds).execute();
    await trx.deleteFrom('webhook_deliveries').where('id', 'in', deliveryIds).execute();
  }
  if (events.length > 0) await trx.deleteFrom('events').where('id', 'in', events).execute();
  // A full batch of candidates means there may be more, even if a race kept some of them.
  return candidates.length === BATCH ? BATCH : events.length;
}
