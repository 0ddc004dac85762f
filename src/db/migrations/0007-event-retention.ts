import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Indexes for the retention purge (src/webhooks/retention.ts): events by age across organizations,
 * and deliveries by event (the unique key starts with the endpoint, so it does not serve this).
 */
export async function up(db: Kysely<unknown>, _types: ColumnTypes): Promise<void> {
  await db.schema.createIndex('events_created').on('events').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();
}
