import type { UnitOfWork } from '../../../unit/unit-of-work.ts';

/** Cancels an endpoint's pending deliveries (including leased ones: the worker re-checks status). */
export async function cancelPendingDeliveries(unit: UnitOfWork, endpointId: string, reason: string) {
  const now = unit.clock.now().toISOString();
  const result = await unit.db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, completed_at: now, updated_at: now })
    .where('organization_id', '=', unit.organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
