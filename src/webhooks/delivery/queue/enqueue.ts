import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebhookDeliveriesTable } from '../../../db/tables/webhooks.ts';
import type { RecordedEvent } from '../../../events/recorder.ts';
import { newId } from '../../../lib/ids.ts';

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
