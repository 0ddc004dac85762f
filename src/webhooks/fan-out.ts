import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asJson, dbBool } from '../db/values.ts';
import { matchesAny } from '../events/patterns.ts';
import type { EventFanOut, RecordedEvent } from '../events/recorder.ts';
import { WEBHOOK_TEST_EVENT } from '../events/types/webhooks.ts';
import { enqueueDeliveries } from './delivery/queue/enqueue.ts';

/**
 * The webhook outbox write: runs inside the transaction that records the event, so an event and
 * its deliveries commit (or roll back) together with the change that caused them. One `pending`
 * delivery per active, non-archived endpoint of the event's organization whose patterns match,
 * due at the event's time (attempt 1 is "immediately after the event").
 *
 * A concurrent archive or auto-disable may commit between this read and our commit; the delivery
 * worker therefore re-checks the endpoint's status when it claims a delivery.
 */
export const webhookFanOut: EventFanOut = Object.assign(
  async (db: Kysely<Database>, event: RecordedEvent, looked?: unknown) =>
    (await insertDeliveries(db, event, looked as EndpointPatterns[] | undefined)).length,
  { lookup: liveEndpointsJson },
);

interface EndpointPatterns {
  id: string;
  events: unknown;
}

/**
 * PostgreSQL: the organization's live endpoints as one JSON array, a scalar subquery the unit's
 * last statement carries (src/unit/pending-writes.ts), so a create in an organization without
 * endpoints costs no statement of its own for the fan-out.
 */
function liveEndpointsJson(organizationId: string): RawBuilder<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('id', e.id, 'events', e.events) order by e.id), '[]'::json)
    from webhook_endpoints e where ${liveEndpointsOf(organizationId)})`;
}

/** The endpoints (aliased `e`) an organization's events fan out to: enabled and not archived. */
function liveEndpointsOf(organizationId: string): RawBuilder<boolean> {
  return sql`e.organization_id = ${organizationId} and e.status = 'active' and e.active = ${dbBool(true)}
    and e.archived_at is null`;
}

/**
 * Returns the ids of the endpoints that received a delivery row. `looked` is the organization's
 * live endpoints when the caller already read them in this transaction (liveEndpointsJson).
 */
export async function insertDeliveries(
  db: Kysely<Database>,
  event: RecordedEvent,
  looked?: readonly EndpointPatterns[],
): Promise<string[]> {
  // webhooks.endpoints.test writes its own single delivery; a test event is never broadcast.
  if (event.type === WEBHOOK_TEST_EVENT) return [];
  const endpoints =
    looked ??
    (
      await sql<EndpointPatterns>`select e.id, e.events from webhook_endpoints e
        where ${liveEndpointsOf(event.organizationId)} order by e.id`.execute(db)
    ).rows;
  const matching = endpoints.filter((endpoint) => matchesAny(asJson<string[]>(endpoint.events), event.type));
  if (matching.length === 0) return [];
  await enqueueDeliveries(
    db,
    event,
    matching.map((endpoint) => endpoint.id),
  );
  return matching.map((endpoint) => endpoint.id);
}
