import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { asIso } from '../db/values.ts';
import { DAY } from '../lib/clock.ts';
import { deleteDeliveriesOfEvents } from './delivery/queue/purge.ts';

/**
 * Events removed per transaction. Small, because each event brings a delivery per endpoint and
 * up to 8 attempts per delivery: a batch must stay a short transaction (SQLite has one writer).
 */
const BATCH = 100;

/**
 * Retention of the event log (docs/webhooks.md, "Retention"): events older than `days`, with their
 * deliveries and attempts, are deleted in short transactions. An event is kept while any of its
 * deliveries is pending (a retry due, or one retried by hand) or held by a worker (an attempt in
 * flight whose outcome is still to be written). Returns the number of events deleted; at most
 * `maxBatches` transactions per call, so the caller decides when to come back.
 */
export async function purgeExpiredEvents(db: Db, now: Date, days: number, maxBatches = 20): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY).toISOString();
  const nowIso = now.toISOString();
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const { candidates, removed } = await db.kysely
      .transaction()
      .execute((trx) => purgeBatch(trx, db.dialect, cutoff, nowIso));
    deleted += removed;
    if (candidates < BATCH) break;
  }
  return deleted;
}

async function purgeBatch(
  trx: Kysely<Database>,
  dialect: Db['dialect'],
  cutoff: string,
  nowIso: string,
): Promise<{ candidates: number; removed: number }> {
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
              .where((d) => d.or([d('d.status', '=', 'pending'), d('d.locked_until', '>', nowIso)])),
          ),
        ),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(BATCH)
      .execute()
  ).map((row) => row.id);
  if (candidates.length === 0) return { candidates: 0, removed: 0 };

  // Check again under lock (PostgreSQL; SQLite's writer is already exclusive): a concurrent
  // `webhooks.deliveries.retry` either committed first, and its event is kept, or waits and then
  // finds nothing to retry.
  let deliveries = trx
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'status', 'locked_until'])
    .where('event_id', 'in', candidates);
  if (dialect === 'postgres') deliveries = deliveries.forUpdate();
  const rows = await deliveries.execute();
  const busy = (row: (typeof rows)[number]) =>
    row.status === 'pending' || (row.locked_until !== null && asIso(row.locked_until) > nowIso);
  const kept = new Set(rows.filter(busy).map((row) => row.event_id));
  const events = candidates.filter((id) => !kept.has(id));
  if (events.length > 0) {
    // By subquery: an event may have hundreds of deliveries, more than a statement's parameters.
    await trx
      .deleteFrom('webhook_attempts')
      .where('delivery_id', 'in', (eb) =>
        eb.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', events),
      )
      .execute();
    await deleteDeliveriesOfEvents(trx, events);
    await trx.deleteFrom('events').where('id', 'in', events).execute();
  }
  return { candidates: candidates.length, removed: events.length };
}
