import assert from 'node:assert/strict';
import { webhookDeliveryJob } from '../../src/jobs/webhook-jobs.ts';
import type { Caller, TestApp } from './app.ts';
import { call } from './http.ts';

/** Short, test-friendly delivery settings (the schedule keeps the contract's shape, in seconds). */
export const FAST_DELIVERY_ENV = {
  ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true',
  // Test receivers listen on http://localhost:<random port>.
  ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: 'any',
  ACCOUNTING_WEBHOOK_TIMEOUT: '400ms',
  ACCOUNTING_WEBHOOK_LEASE: '5s',
};

export interface CreatedEndpoint {
  id: string;
  secret: string;
  revision: number;
}

/** Adds an endpoint through the API (webhooks.endpoints.create) and returns its id and secret. */
export async function addEndpoint(
  app: TestApp,
  caller: Caller,
  url: string,
  events: string[] = ['contractor.*'],
): Promise<CreatedEndpoint> {
  const res = await call(app.baseUrl, 'webhooks.endpoints.create', { url, events }, { token: caller.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const data = res.data as { endpoint: { id: string; revision: number }; secret: string };
  return { id: data.endpoint.id, secret: data.secret, revision: data.endpoint.revision };
}

let sequence = 0;

/** Causes one `contractor.created` event (through the API) and returns the event id. */
export async function causeEvent(app: TestApp, caller: Caller): Promise<string> {
  sequence += 1;
  const res = await call(
    app.baseUrl,
    'contractors.create',
    {
      displayName: `C${sequence}`,
      legalName: `Contractor ${sequence}`,
      email: `c${sequence}-${Date.now()}@example.com`,
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const contractorId = (res.data as { id: string }).id;
  const event = await app.services.db.kysely
    .selectFrom('events')
    .select('id')
    .where('organization_id', '=', caller.organizationId)
    .where('type', '=', 'contractor.created')
    .where('subject_id', '=', contractorId)
    .executeTakeFirstOrThrow();
  return event.id;
}

/** Runs the delivery job until nothing is due at the current test clock and nothing is in flight. */
export async function deliverNow(app: TestApp): Promise<void> {
  await app.runJobs([webhookDeliveryJob]);
}

export async function deliveryRows(app: TestApp, endpointId: string) {
  return app.services.db.kysely
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function attemptRows(app: TestApp, deliveryId: string) {
  return app.services.db.kysely
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_number')
    .execute();
}

export async function endpointRow(app: TestApp, endpointId: string) {
  return app.services.db.kysely
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpointId)
    .executeTakeFirstOrThrow();
}
