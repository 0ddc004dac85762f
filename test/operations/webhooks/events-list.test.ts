import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { insertEvent as insertEventRow } from '../../webhooks/endpoint-helpers.ts';

interface Envelope {
  id: string;
  type: string;
  created: number;
  organizationId: string;
  subject: { type: string; id: string } | null;
  data: Record<string, unknown>;
}

for (const dialect of DIALECTS) {
  describe(`webhooks.events.list and get (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    /** Event rows written directly: any type, any time (the API only reads them). */
    const insertEvent = (organizationId: string, type: string, at = app.clock.now()) =>
      insertEventRow(app, organizationId, type, at);
    const list = (caller: Caller, input: Record<string, unknown>) =>
      call(app.baseUrl, 'webhooks.events.list', input, { token: caller.token, method: 'GET' });

    it('returns envelopes exactly as delivered, newest first', async () => {
      const caller = await createCaller(app);
      const created = await call(
        app.baseUrl,
        'webhooks.endpoints.create',
        { url: 'https://hooks.example.com/', events: ['*'] },
        { token: caller.token },
      );
      const endpointId = (created.data.endpoint as { id: string }).id;
      app.clock.advance(2500);
      await insertEvent(caller.organizationId, 'contractor.created');
      const res = await list(caller, {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const items = res.data.items as Envelope[];
      assert.deepEqual(
        items.map((e) => e.type),
        ['contractor.created', 'webhook.endpoint.created'],
      );
      const endpointEvent = items[1] as Envelope;
      assert.deepEqual(Object.keys(endpointEvent), [
        'id',
        'type',
        'created',
        'organizationId',
        'subject',
        'data',
      ]);
      assert.equal(endpointEvent.created, Math.floor(new Date('2026-01-15T12:00:00.000Z').getTime() / 1000));
      assert.equal(endpointEvent.organizationId, caller.organizationId);
      assert.deepEqual(endpointEvent.subject, { type: 'webhook_endpoint', id: endpointId });
      assert.deepEqual(endpointEvent.data, {
        url: 'https://hooks.example.com/',
        description: '',
        events: ['*'],
      });
      const one = await call(
        app.baseUrl,
        'webhooks.events.get',
        { id: endpointEvent.id },
        { token: caller.token },
      );
      assert.equal(one.status, 200);
      assert.deepEqual(one.data, endpointEvent);
      assert.equal(res.data.nextCursor, null);
    });

    it('pages with a cursor that neither skips nor repeats while events keep arriving', async () => {
      const caller = await createCaller(app);
      const expected: string[] = [];
      // Several events share a timestamp: the id breaks the tie.
      for (let i = 0; i < 7; i += 1) {
        expected.unshift(await insertEvent(caller.organizationId, 'invoice.paid'));
        if (i % 3 === 2) app.clock.advance(1000);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list(caller, cursor ? { limit: 2, cursor } : { limit: 2 });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        seen.push(...(res.data.items as Envelope[]).map((e) => e.id));
        cursor = res.data.nextCursor as string | null;
        // Newer events arrive between pages; they sort before the cursor and do not disturb it.
        app.clock.advance(10);
        await insertEvent(caller.organizationId, 'invoice.paid');
      } while (cursor);
      assert.deepEqual(seen, expected);
    });

    it('filters by exact type and by group (underscores are literal)', async () => {
      const caller = await createCaller(app);
      for (const type of [
        'job_role.saved',
        'jobxrole.saved',
        'contractor.created',
        'contractor.updated',
        'invoice.paid',
      ]) {
        await insertEvent(caller.organizationId, type);
      }
      const types = async (type: string) =>
        ((await list(caller, { type })).data.items as Envelope[]).map((e) => e.type).sort();
      assert.deepEqual(await types('contractor.*'), ['contractor.created', 'contractor.updated']);
      assert.deepEqual(await types('job_role.*'), ['job_role.saved']);
      assert.deepEqual(await types('invoice.paid'), ['invoice.paid']);
      assert.equal((await types('*')).length, 5);
      assert.deepEqual(await types('no.such'), []);
      assertError(await list(caller, { type: 'contractor.%' }), 400, 'invalid_input');
      assertError(await list(caller, { cursor: 'bm90LWEtY3Vyc29y' }), 400, 'invalid_input');
      assertError(await list(caller, { limit: 101 }), 400, 'invalid_input');
    });

    it("never shows another organization's events; finance is refused", async () => {
      const a = await createCaller(app);
      const b = await createCaller(app);
      const id = await insertEvent(a.organizationId, 'invoice.paid');
      assertError(
        await call(app.baseUrl, 'webhooks.events.get', { id }, { token: b.token }),
        404,
        'not_found',
      );
      assert.ok(!((await list(b, {})).data.items as Envelope[]).some((e) => e.id === id));
      const finance = await createCaller(app, { role: 'finance', organizationId: a.organizationId });
      assertError(await list(finance, {}), 403, 'role_not_allowed');
      assertError(
        await call(app.baseUrl, 'webhooks.events.get', { id }, { token: finance.token }),
        403,
        'role_not_allowed',
      );
    });
  });
}
