import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParty, type Json } from '../../invoicing/ops-support.ts';
import { createSchedule, sentInvoice, TEMPLATE_LINES } from '../../invoicing/schedules-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call, freshKey } from '../../support/http.ts';

/** Retried mutations take effect once; a key reused for another request is refused; bad reads are 400. */
for (const dialect of DIALECTS) {
  describe(`schedule idempotency and read inputs (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      app.clock.set('2026-06-01T12:00:00Z');
      party = await createParty(app, admin);
    });
    after(() => app.close());

    const op = (name: string, input: Json, key?: string) =>
      call(app.baseUrl, name, input, { token: admin.token, ...(key ? { idempotencyKey: key } : {}) });
    const count = async (table: 'invoice_schedules' | 'audit_log' | 'events' | 'payment_plan_installments') =>
      Number(
        (
          await app.services.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('organization_id', '=', admin.organizationId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('invoices.schedules.create: a retry with the same key creates one schedule', async () => {
      const input = {
        partyId: party.id,
        currency: 'CAD',
        lines: TEMPLATE_LINES,
        cadence: { kind: 'weekly' },
        startDate: '2026-06-02',
      };
      const key = freshKey();
      const first = await op('invoices.schedules.create', input, key);
      const before = [await count('invoice_schedules'), await count('audit_log'), await count('events')];
      const second = await op('invoices.schedules.create', input, key);
      assert.equal(second.status, 200);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(second.data, first.data);
      assert.deepEqual(
        [await count('invoice_schedules'), await count('audit_log'), await count('events')],
        before,
      );
      const other = await op('invoices.schedules.create', { ...input, startDate: '2026-06-03' }, key);
      assertError(other, 400, 'idempotency_key_reused');
      assertError(await op('invoices.schedules.create', input, 'short'), 400, 'invalid_input');
    });

    it('invoices.paymentPlans.create: a retry makes one plan and one set of installments', async () => {
      const invoice = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-06-01',
        dueDate: '2026-06-30',
      });
      const input = {
        invoiceId: invoice.id,
        equal: { count: 4, firstDueDate: '2026-06-15', interval: { kind: 'weekly' } },
      };
      const key = freshKey();
      const first = await op('invoices.paymentPlans.create', input, key);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const installments = await count('payment_plan_installments');
      const second = await op('invoices.paymentPlans.create', input, key);
      assert.deepEqual(second.data, first.data);
      assert.equal(await count('payment_plan_installments'), installments);
      // A new key is a new request: refused, as the invoice has a plan now.
      assertError(await op('invoices.paymentPlans.create', input, freshKey()), 409, 'payment_plan_exists');
    });

    it('update, resume and cancel: a retry replays, a new key with the old revision is 409', async () => {
      const made = await createSchedule(app, admin, party.id, {
        cadence: { kind: 'weekly' },
        startDate: '2026-06-02',
      });
      for (const [name, extra] of [
        ['invoices.schedules.update', { name: 'Renamed' }],
        ['invoices.schedules.pause', {}],
        ['invoices.schedules.resume', {}],
        ['invoices.schedules.cancel', {}],
      ] as const) {
        const { revision } = (await op('invoices.schedules.get', { id: made.id })).data as Json;
        const key = freshKey();
        const input = { id: made.id, expectedRevision: revision, idempotencyKey: key, ...extra };
        const first = await op(name, input);
        assert.equal(first.status, 200, `${name} ${JSON.stringify(first.body)}`);
        const replay = await op(name, input);
        assert.deepEqual(replay.data, first.data, name);
        assert.equal(replay.headers.get('idempotent-replayed'), 'true', name);
        const fresh = await op(name, { ...input, idempotencyKey: freshKey() });
        assertError(fresh, 409, 'revision_conflict', name);
      }
      const audit = await auditRows(
        app,
        { recordId: String(made.id) },
        { columns: ['operation'], orderBy: ['created_at', 'id'] },
      );
      assert.deepEqual(
        audit.map((a) => a.operation),
        [
          'invoices.schedules.create',
          'invoices.schedules.update',
          'invoices.schedules.pause',
          'invoices.schedules.resume',
          'invoices.schedules.cancel',
        ],
      );
    });

    it('refuses bad read parameters with 400 (body and query string)', async () => {
      const cases: Array<[string, Json, string, string]> = [
        ['invoices.schedules.get', { id: 'not-a-uuid' }, 'invalid_input', 'id'],
        ['invoices.schedules.get', {}, 'invalid_input', 'id'],
        ['invoices.schedules.list', { kind: 'monthly' }, 'invalid_input', 'kind'],
        ['invoices.schedules.list', { status: 'running' }, 'invalid_input', 'status'],
        ['invoices.schedules.list', { limit: 101 }, 'invalid_input', 'limit'],
        ['invoices.schedules.list', { offset: -1 }, 'invalid_input', 'offset'],
        ['invoices.schedules.list', { partyId: 'x' }, 'invalid_input', 'partyId'],
        ['invoices.schedules.list', { sort: 'name' }, 'unknown_field', 'sort'],
      ];
      for (const [name, input, code, field] of cases) {
        const res = await op(name, input);
        assertError(res, 400, code, `${name} ${JSON.stringify(input)}`);
        assert.equal(res.error.field, field);
      }
      const query = await call(
        app.baseUrl,
        'invoices.schedules.list',
        { sort: 'name' },
        { token: admin.token, method: 'GET' },
      );
      assertError(query, 400, 'unknown_parameter');
      const ok = await call(
        app.baseUrl,
        'invoices.schedules.list',
        { kind: 'recurring', limit: 1, offset: 0 },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal((ok.data.items as Json[]).length, 1);
    });
  });
}
