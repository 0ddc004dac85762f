import type { Kysely, Selectable, Updateable } from 'kysely';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import type { WebhookEndpointsTable } from '../db/tables/webhooks.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';

/** A webhook endpoint as stored; src/operations/webhooks/schema.ts turns it into the wire record. */
export type EndpointRow = Selectable<WebhookEndpointsTable>;

/**
 * The endpoint repository shared by the operations, the admin CLI and (later) the dashboard.
 * Every query is scoped by organization: another organization's endpoint is "not found".
 */

export function selectEndpoint(db: Kysely<Database>, organizationId: string, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function requireEndpoint(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<EndpointRow> {
  const row = await selectEndpoint(db, organizationId, id);
  if (!row) throw notFound('Webhook endpoint', 'id');
  return row;
}

/**
 * The state rule of an endpoint change, checked after the revision (see `loadForChange` in
 * `unit/revision.ts`): 409 `invalid_state` when `allowed` does not include its status.
 */
export function allowStatus(allowed: readonly string[], action: string): (row: EndpointRow) => void {
  return (row) => {
    if (allowed.includes(row.status)) return;
    const article = /^[aeiou]/.test(row.status) ? 'An' : 'A';
    throw new AppError('invalid_state', `${article} ${row.status} endpoint cannot be ${action}.`, {
      details: { state: row.status },
    });
  };
}

/**
 * Compare-and-set on the revision the row was read at: +1 revision, new updated_at, audit row.
 * A concurrent change in between makes the update match nothing: 409 with the current revision.
 */
export async function changeEndpoint(
  unit: UnitOfWork,
  row: EndpointRow,
  changes: Omit<Updateable<WebhookEndpointsTable>, 'id' | 'organization_id' | 'revision'>,
): Promise<EndpointRow> {
  const updated = await unit.db
    .updateTable('webhook_endpoints')
    .set({ ...changes, revision: row.revision + 1, updated_at: unit.clock.now().toISOString() })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    const current = await requireEndpoint(unit.db, unit.organizationId, row.id);
    throw revisionConflict(current.revision);
  }
  await unit.audit({
    recordType: 'webhook_endpoint',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: updated.revision,
  });
  return updated;
}
