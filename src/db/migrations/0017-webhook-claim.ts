import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Claiming webhook deliveries in O(rows claimed), not O(backlog) (issue 16, part 3;
 * docs/webhooks-delivery.md, "Claiming"). Three partial indexes hold only pending rows:
 *
 * - first attempts and retries apart, each by (endpoint_id, next_attempt_at, id): the claimer finds
 *   the endpoints with waiting work by skipping from one endpoint to the next, and an endpoint's
 *   oldest due row by one seek, so a deep backlog of one endpoint (or of retries not yet due)
 *   costs nothing to the others;
 * - leased rows by (endpoint_id, locked_until): live leases per endpoint are counted without
 *   reading the endpoint's backlog, and the sweep for abandoned last attempts reads leased rows
 *   only.
 *
 * The predicates are written as literals because SQLite uses a partial index only when the query
 * repeats its condition literally (src/webhooks/delivery/queue/claimable.ts does).
 *
 * The two indexes of 0004 that led with `status` go: SQLite preferred them (an equality on
 * `status` looks selective to it) and then walked every pending row of the other kind. An
 * endpoint's deliveries by status (cancel on turn-off, recover failed since a time) keep an index
 * of their own, by creation time.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema.dropIndex('webhook_deliveries_endpoint_due').execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_status')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_first_due')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .where(sql.ref('attempt_count'), '=', sql.lit(0))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_retry_due')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .where(sql.ref('attempt_count'), '>', sql.lit(0))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_leased')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'locked_until'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .where(sql.ref('locked_until'), 'is not', null)
    .execute();
}
