import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { dbJson } from '../../src/db/values.ts';
import { newId } from '../../src/lib/ids.ts';
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
  return disableEndpointRow(app.services.db.kysely, app.clock.now(), organizationId, id);
}

/** markDisabled for a database opened outside a TestApp (the CLI tests). */
export async function disableEndpointRow(
  kysely: Kysely<Database>,
  now: Date,
  organizationId: string,
  id: string,
): Promise<number> {
  const row = await kysely
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      status: 'disabled',
      active: 0,
      failure_count: 20,
      disabled_reason: '20 failed attempts in a row',
      disabled_at: now.toISOString(),
      revision: eb('revision', '+', 1),
    }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning('revision')
    .executeTakeFirstOrThrow();
  return row.revision;
}

/** An event row written directly (any type, any time): for the reads and the purge, not the API. */
export async function insertEvent(
  app: TestApp,
  organizationId: string,
  type: string,
  at: Date = app.clock.now(),
): Promise<string> {
  const id = newId(at.getTime());
  await app.services.db.kysely
    .insertInto('events')
    .values({
      id,
      organization_id: organizationId,
      type,
      subject_type: 'contractor',
      subject_id: '01920000-0000-7000-8000-0000000000aa',
      data: dbJson({ n: type }),
      request_id: null,
      created_at: at.toISOString(),
    })
    .execute();
  return id;
}
