import assert from 'node:assert/strict';
import type { Caller, TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

/** The contract's endpoint fields, exactly. */
export const ENDPOINT_FIELDS = [
  'active',
  'archived_at',
  'created_at',
  'created_by',
  'description',
  'disabled_at',
  'disabled_reason',
  'events',
  'failure_count',
  'id',
  'last_delivery_at',
  'last_success_at',
  'revision',
  'secret_hint',
  'secret_version',
  'status',
  'updated_at',
  'url',
];

export interface Endpoint {
  id: string;
  url: string;
  revision: number;
  status: string;
  events: string[];
  secret_version: number;
  secret_hint: string;
  [field: string]: unknown;
}

export async function createEndpoint(
  app: TestApp,
  caller: Caller,
  input: Record<string, unknown> = {},
): Promise<{ endpoint: Endpoint; secret: string }> {
  const res = await call(
    app.baseUrl,
    'webhooks.endpoints.create',
    { url: 'https://hooks.example.com/in', events: ['*'], ...input },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as { endpoint: Endpoint; secret: string };
}

export async function deliveriesOf(app: TestApp, organizationId: string) {
  return app.services.db.kysely
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function eventsOf(app: TestApp, organizationId: string, type?: string) {
  let query = app.services.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', organizationId);
  if (type) query = query.where('type', '=', type);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Puts an endpoint in the state auto-disable leaves it in (the delivery worker does this for real). */
export async function markDisabled(app: TestApp, organizationId: string, id: string): Promise<number> {
  const row = await app.services.db.kysely
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      status: 'disabled',
      active: 0,
      failure_count: 20,
      disabled_reason: '20 failed attempts in a row',
      disabled_at: app.clock.now().toISOString(),
      revision: eb('revision', '+', 1),
    }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning('revision')
    .executeTakeFirstOrThrow();
  return row.revision;
}
