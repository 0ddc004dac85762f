import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** Deletes the deliveries of purged events (their attempts are deleted first by the caller). */
export async function deleteDeliveriesOfEvents(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length > 0)
    await db.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
}
