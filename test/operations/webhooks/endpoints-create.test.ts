import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asJson } from '../../../src/db/values.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import {
  createEndpoint,
  deliveriesOf,
  ENDPOINT_FIELDS,
  type Endpoint,
  eventsOf,
} from '../../webhooks/endpoint-helpers.ts';

for (const dialect of DIALECTS) {
  describe(`webhook endpoints: create, list, get, update, archive (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());
    const op = (name: string, input: Record<string, unknown>, caller = admin) =>
      call(app.baseUrl, `webhooks.endpoints.${name}`, input, { token: caller.token });

    it('creates an endpoint with exactly the contract fields and a secret beside it', async () => {
      const res = await op('create', {
        url: 'https://Hooks.Example.com:8443/in?x=1',
        description: 'ERP',
        events: ['invoice.paid', 'contractor.*'],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { endpoint, secret } = res.data as { endpoint: Endpoint; secret: string };
      assert.deepEqual(Object.keys(res.data).sort(), ['endpoint', 'secret']);
      assert.deepEqual(Object.keys(endpoint).sort(), ENDPOINT_FIELDS);
      assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(
        { ...endpoint, id: '', created_at: '', updated_at: '' },
        {
          id: '',
          url: 'https://hooks.example.com:8443/in?x=1',
          description: 'ERP',
          events: ['invoice.paid', 'contractor.*'],
          secret_hint: `whsec_…${secret.slice(-4)}`,
          secret_version: 1,
          active: true,
          failure_count: 0,
          disabled_reason: null,
          disabled_at: null,
          last_delivery_at: null,
          last_success_at: null,
          created_by: `member:${admin.memberId}`,
          archived_at: null,
          revision: 1,
          created_at: '',
          updated_at: '',
          status: 'active',
        },
      );
      assert.equal(endpoint.created_at, app.clock.now().toISOString());
      const audit = await auditRows(app, { recordId: endpoint.id });
      assert.equal(audit.length, 1);
      const [event] = await eventsOf(app, admin.organizationId, 'webhook.endpoint.created');
      assert.equal(event?.subject_id, endpoint.id);
    });

    it('gets an endpoint without its secret, and 404s for unknown ids and other organizations', async () => {
      const { endpoint } = await createEndpoint(app, admin);
      const res = await op('get', { id: endpoint.id });
      assert.equal(res.status, 200);
      assert.deepEqual(res.data, endpoint);
      const viaGet = await call(
        app.baseUrl,
        'webhooks.endpoints.get',
        { id: endpoint.id },
        {
          token: admin.token,
          method: 'GET',
        },
      );
      assert.deepEqual(viaGet.data, endpoint);
      const other = await createCaller(app);
      assertError(await op('get', { id: endpoint.id }, other), 404, 'not_found');
      assertError(
        await op('update', { id: endpoint.id, expectedRevision: 1, description: 'x' }, other),
        404,
        'not_found',
      );
      assertError(await op('archive', { id: endpoint.id, expectedRevision: 1 }, other), 404, 'not_found');
      assertError(await op('test', { id: endpoint.id }, other), 404, 'not_found');
      assertError(
        await op(
          'rotateSecret',
          { id: endpoint.id, expectedRevision: 1, idempotencyKey: 'rotate-other-org' },
          other,
        ),
        404,
        'not_found',
      );
      const list = await op('list', {}, other);
      assert.deepEqual((list.data as { items: unknown[] }).items, []);
    });

    it('lists newest first with offset pages; archived ones only with includeArchived', async () => {
      const caller = await createCaller(app);
      const made: Endpoint[] = [];
      for (let i = 0; i < 5; i += 1) {
        made.push((await createEndpoint(app, caller, { description: `e${i}` })).endpoint);
        app.clock.advance(1000);
      }
      const first = await op('list', { limit: 2 }, caller);
      assert.deepEqual(
        (first.data.items as Endpoint[]).map((e) => e.description),
        ['e4', 'e3'],
      );
      assert.equal(first.data.nextOffset, 2);
      const last = await op('list', { limit: 2, offset: 4 }, caller);
      assert.deepEqual(
        (last.data.items as Endpoint[]).map((e) => e.description),
        ['e0'],
      );
      assert.equal(last.data.nextOffset, null);
      const archived = made[2] as Endpoint;
      assert.equal((await op('archive', { id: archived.id, expectedRevision: 1 }, caller)).status, 200);
      const live = await op('list', {}, caller);
      assert.deepEqual(
        (live.data.items as Endpoint[]).map((e) => e.description),
        ['e4', 'e3', 'e1', 'e0'],
      );
      const all = await call(
        app.baseUrl,
        'webhooks.endpoints.list',
        { includeArchived: true },
        {
          token: caller.token,
          method: 'GET',
        },
      );
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.equal((all.data.items as Endpoint[]).length, 5);
    });

    it('updates url, description and events with a revision check', async () => {
      const { endpoint } = await createEndpoint(app, admin);
      app.clock.advance(5000);
      const res = await op('update', {
        id: endpoint.id,
        expectedRevision: 1,
        url: 'https://other.example.org/hook',
        events: ['invoice.*'],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.url, 'https://other.example.org/hook');
      assert.deepEqual(res.data.events, ['invoice.*']);
      assert.equal(res.data.description, '');
      assert.equal(res.data.updated_at, app.clock.now().toISOString());
      assert.equal(res.data.secret_hint, endpoint.secret_hint);
      const [event] = await eventsOf(app, admin.organizationId, 'webhook.endpoint.updated');
      assert.deepEqual(asJson<{ changed: string[] }>(event?.data).changed, ['url', 'events']);
      const stale = await op('update', { id: endpoint.id, expectedRevision: 1, description: 'late' });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      // Nothing to change: same record, same revision.
      const same = await op('update', { id: endpoint.id, expectedRevision: 2, events: ['invoice.*'] });
      assert.equal(same.data.revision, 2);
    });

    it('archives: status archived, pending deliveries cancelled, no further change', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, { events: ['webhook.*'] });
      // Its own creation event gave it one pending delivery; a test adds another.
      assert.equal((await op('test', { id: endpoint.id }, caller)).status, 200);
      assert.equal((await deliveriesOf(app, caller.organizationId)).length, 2);
      app.clock.advance(1000);
      const res = await op('archive', { id: endpoint.id, expectedRevision: 1 }, caller);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'archived');
      assert.equal(res.data.active, false);
      assert.equal(res.data.archived_at, app.clock.now().toISOString());
      assert.equal(res.data.revision, 2);
      const deliveries = await deliveriesOf(app, caller.organizationId);
      assert.deepEqual(
        deliveries.map((d) => d.status),
        ['cancelled', 'cancelled'],
      );
      // Its own archive event is not delivered to it.
      const [archivedEvent] = await eventsOf(app, caller.organizationId, 'webhook.endpoint.archived');
      assert.ok(archivedEvent);
      assert.ok(!deliveries.some((d) => d.event_id === archivedEvent.id));
      for (const [name, input] of [
        ['update', { id: endpoint.id, expectedRevision: 2, description: 'x' }],
        ['archive', { id: endpoint.id, expectedRevision: 2 }],
        ['rotateSecret', { id: endpoint.id, expectedRevision: 2, idempotencyKey: 'rotate-archived-1' }],
        ['test', { id: endpoint.id }],
      ] as const) {
        const refused = await op(name, input, caller);
        assertError(refused, 409, 'invalid_state', name);
        assert.equal(refused.error.state, 'archived');
      }
    });

    it('refuses the finance role and keys without the admin scope', async () => {
      const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const { endpoint } = await createEndpoint(app, admin);
      assertError(
        await op('create', { url: 'https://a.example.com/', events: ['*'] }, finance),
        403,
        'role_not_allowed',
      );
      assertError(await op('list', {}, finance), 403, 'role_not_allowed');
      assertError(await op('get', { id: endpoint.id }, finance), 403, 'role_not_allowed');
      const readWrite = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read', 'accounting:write'],
      });
      assertError(
        await op('create', { url: 'https://a.example.com/', events: ['*'] }, readWrite),
        403,
        'insufficient_scope',
      );
      assert.equal((await op('get', { id: endpoint.id }, readWrite)).status, 200);
    });
  });
}
