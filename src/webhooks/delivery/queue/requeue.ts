import { sql } from 'kysely';
import type { UnitOfWork } from '../../../unit/unit-of-work.ts';

/**
 * Puts a finished delivery back in the queue, due now, with at least one more attempt; a
 * compare-and-set on its status, so of two concurrent retries one wins (false for the other).
 */
export async function requeueDelivery(
  unit: UnitOfWork,
  delivery: { id: string; status: string; attemptCount: number },
  at: { scheduleLength: number; now: string },
): Promise<boolean> {
  const { scheduleLength, now } = at;
  const updated = await unit.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      // At least one more attempt; a delivery cancelled early keeps the rest of its schedule.
      attempt_limit: Math.max(delivery.attemptCount + 1, scheduleLength),
      next_attempt_at: now,
      locked_until: null,
      locked_by: null,
      completed_at: null,
      updated_at: now,
    })
    .where('id', '=', delivery.id)
    .where('organization_id', '=', unit.organizationId)
    .where('status', '=', delivery.status)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** "Retry now": a pending delivery not in flight becomes due at once (false when it is in flight). */
export async function makePendingDueNow(unit: UnitOfWork, deliveryId: string, now: string): Promise<boolean> {
  const updated = await unit.db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', '=', deliveryId)
    .where('organization_id', '=', unit.organizationId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Every failed delivery of an endpoint created at or after `since`, requeued like requeueDelivery. */
export async function requeueFailedSince(
  unit: UnitOfWork,
  endpointId: string,
  since: string,
  at: { scheduleLength: number; now: string },
): Promise<number> {
  const { scheduleLength, now } = at;
  const result = await unit.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      attempt_limit: sql<number>`case when attempt_count + 1 > ${scheduleLength} then attempt_count + 1 else ${scheduleLength} end`,
      next_attempt_at: now,
      locked_until: null,
      locked_by: null,
      completed_at: null,
      updated_at: now,
    })
    .where('organization_id', '=', unit.organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
