import { dbBool } from '../db/values.ts';
import { loadForChange } from '../unit/revision.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { allowStatus, changeEndpoint, type EndpointRow, requireEndpoint } from './endpoints.ts';

/**
 * Turns a disabled endpoint back on (contract: "administrator turns it on in the dashboard").
 * Shared by the dashboard-only operation webhooks.endpoints.enable and the operator command
 * `accounting webhooks enable`. Resets the consecutive failure count; deliveries that failed or were
 * stopped while it was off are not resent automatically (they can be retried from the delivery log).
 */
export async function enableEndpoint(
  unit: UnitOfWork,
  input: { id: string; expectedRevision: number },
): Promise<EndpointRow> {
  const row = await loadForChange(
    requireEndpoint(unit.db, unit.organizationId, input.id),
    input.expectedRevision,
    allowStatus(['disabled'], 'enabled'),
  );
  const updated = await changeEndpoint(unit, row, {
    status: 'active',
    active: dbBool(true),
    failure_count: 0,
    disabled_reason: null,
    disabled_at: null,
  });
  await unit.emit({
    type: 'webhook.endpoint.enabled',
    subject: { type: 'webhook_endpoint', id: row.id },
    data: { url: row.url },
  });
  return updated;
}
