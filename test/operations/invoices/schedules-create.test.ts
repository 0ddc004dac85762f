import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { findOperation } from '../../../src/operations/catalog.ts';
import { mcpToolName } from '../../../src/operations/define.ts';
import { createParty, eventsOf, type Json } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call, freshKey } from '../../support/http.ts';

const LINES = [{ description: 'Retainer', quantity: '1', unitAmountMinor: '100000', taxRate: '13' }];

export function recurringInput(partyId: unknown, overrides: Json = {}): Json {
  return {
    partyId,
    currency: 'CAD',
    lines: LINES,
    cadence: { kind: 'monthly', dayOfMonth: 31 },
    startDate: '2026-01-31',
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe(`invoice schedule operations (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let partyId: string;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      partyId = String((await createParty(app, admin)).id);
    });
    after(() => app.close());

    const op = (name: string, input: Json, options: Parameters<typeof call>[3] = {}) =>
      call(app.baseUrl, name, input, { token: admin.token, ...options });
    const create = async (overrides: Json = {}) => {
      const res = await op('invoices.schedules.create', recurringInput(partyId, overrides));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.data as Json;
    };
    const revisionOf = async (id: unknown) =>
      Number((await op('invoices.schedules.get', { id })).data.revision);

    it('creates a recurring schedule: first run, template total, audit and event', async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const schedule = await create({ name: 'Retainer', end: { kind: 'after_count', count: 12 } });
      assert.equal(schedule.kind, 'recurring');
      assert.equal(schedule.status, 'active');
      assert.equal(schedule.name, 'Retainer');
      assert.equal(schedule.next_run_date, '2026-01-31');
      assert.equal(schedule.amount_minor, '113000');
      assert.equal(schedule.auto_send, false);
      assert.equal(schedule.time_zone, 'UTC');
      assert.equal(schedule.payment_terms_days, 30);
      assert.deepEqual(schedule.cadence, {
        kind: 'monthly',
        interval_weeks: null,
        day_of_month: 31,
        interval_months: 1,
      });
      assert.deepEqual(schedule.end, { kind: 'after_count', date: null, count: 12 });
      assert.deepEqual(schedule.lines, [
        { description: 'Retainer', quantity: '1', unit_amount_minor: '100000', tax_rate: '13' },
      ]);
      assert.equal(schedule.revision, 1);
      const events = await eventsOf(app, String(schedule.id));
      assert.deepEqual(
        events.map((e) => e.type),
        ['invoice.schedule.created'],
      );
      assert.equal(events[0]?.data.nextRunDate, '2026-01-31');
      const audit = await auditRows(
        app,
        { recordId: String(schedule.id) },
        { columns: ['operation', 'after_revision'] },
      );
      assert.deepEqual(audit, [{ operation: 'invoices.schedules.create', after_revision: 1 }]);
    });

    it('does not back-fill a start date in the past: the first run is the next slot from today', async () => {
      app.clock.set('2026-03-10T12:00:00Z');
      const weekly = await create({ cadence: { kind: 'weekly' }, startDate: '2026-01-01' });
      // 2026-01-01 is a Thursday; the first Thursday on or after 2026-03-10 is 2026-03-12.
      assert.equal(weekly.next_run_date, '2026-03-12');
      const quarterly = await create({
        cadence: { kind: 'quarterly', dayOfMonth: 'last' },
        startDate: '2026-01-01',
      });
      assert.equal(quarterly.next_run_date, '2026-04-30');
      assert.equal((quarterly.cadence as Json).interval_months, 3);
    });

    it('refuses bad input with a 400 naming the field, and creates nothing', async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const before = await op('invoices.schedules.list', { limit: 100 });
      const cases: Array<[Json, number, string, string | undefined]> = [
        [{ cadence: { kind: 'weekly', dayOfMonth: 3 } }, 400, 'invalid_input', 'cadence.dayOfMonth'],
        [{ cadence: { kind: 'monthly' } }, 400, 'invalid_input', 'cadence.dayOfMonth'],
        [
          { cadence: { kind: 'yearly', dayOfMonth: 1, intervalMonths: 2 } },
          400,
          'invalid_input',
          'cadence.intervalMonths',
        ],
        [{ cadence: { kind: 'weekly', intervalWeeks: 53 } }, 400, 'invalid_input', 'cadence.intervalWeeks'],
        [{ cadence: { kind: 'daily' } }, 400, 'invalid_input', 'cadence.kind'],
        [{ end: { kind: 'on_date', date: '2026-01-01' } }, 400, 'invalid_input', 'end.date'],
        [{ end: { kind: 'on_date' } }, 400, 'invalid_input', 'end.date'],
        [{ end: { kind: 'after_count' } }, 400, 'invalid_input', 'end.count'],
        [{ end: { kind: 'never', count: 2 } }, 400, 'invalid_input', 'end.count'],
        [{ startDate: '2026-02-30' }, 400, 'invalid_input', 'startDate'],
        [{ currency: 'usd' }, 400, 'invalid_input', 'currency'],
        [{ currency: 'XYZ' }, 400, 'unsupported_currency', 'currency'],
        [{ lines: [] }, 400, 'invalid_input', 'lines'],
        [{ lines: [{ ...LINES[0], quantity: '0' }] }, 400, 'invalid_quantity', 'lines.0.quantity'],
        [{ lines: [{ ...LINES[0], taxRate: '101' }] }, 400, 'invalid_tax_rate', 'lines.0.taxRate'],
        [{ paymentTermsDays: 366 }, 400, 'invalid_input', 'paymentTermsDays'],
        [{ timeZone: 'Mars/Olympus_Mons' }, 400, 'invalid_input', 'timeZone'],
        [{ partyId: randomUUID() }, 404, 'not_found', 'partyId'],
        [{ surprise: true }, 400, 'unknown_field', 'surprise'],
      ];
      for (const [overrides, status, code, field] of cases) {
        const res = await op('invoices.schedules.create', recurringInput(partyId, overrides));
        assertError(res, status, code, JSON.stringify(overrides));
        assert.equal(res.error.field, field, JSON.stringify(overrides));
      }
      const afterList = await op('invoices.schedules.list', { limit: 100 });
      assert.equal((afterList.data.items as Json[]).length, (before.data.items as Json[]).length);
    });

    it('lists newest first with kind and status filters, and gets one; unknown ids are 404', async () => {
      const res = await op('invoices.schedules.list', { kind: 'recurring', status: 'active', limit: 2 });
      assert.equal(res.status, 200);
      const items = res.data.items as Json[];
      assert.equal(items.length, 2);
      assert.ok(String(items[0]?.created_at) >= String(items[1]?.created_at));
      assert.equal(res.data.nextOffset, 2);
      const viaGet = await op('invoices.schedules.get', { id: items[0]?.id }, { method: 'GET' });
      assert.deepEqual(viaGet.data, items[0]);
      const plans = await op('invoices.schedules.list', { kind: 'payment_plan' });
      assert.deepEqual(plans.data.items, []);
      assertError(await op('invoices.schedules.get', { id: randomUUID() }), 404, 'not_found');
    });

    it('updates the template and cadence (next run recomputed), 409 on a stale revision', async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const schedule = await create();
      const res = await op('invoices.schedules.update', {
        id: schedule.id,
        expectedRevision: 1,
        cadence: { kind: 'weekly', intervalWeeks: 2 },
        startDate: '2026-01-19',
        autoSend: true,
        lines: [{ description: 'Support', quantity: '2', unitAmountMinor: '5000' }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.next_run_date, '2026-01-19');
      assert.equal(res.data.amount_minor, '10000');
      assert.equal(res.data.auto_send, true);
      const stale = await op('invoices.schedules.update', {
        id: schedule.id,
        expectedRevision: 1,
        name: 'x',
      });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      assertError(
        await op('invoices.schedules.update', { id: schedule.id, expectedRevision: 2 }),
        400,
        'invalid_input',
      );
    });

    it('pause: exactly the contract (all three required, 409 on mismatch, replay, MCP tool name)', async () => {
      const operation = findOperation('invoices.schedules.pause');
      assert.ok(operation);
      assert.equal(mcpToolName(operation), 'accounting_invoices_schedules_pause');
      assert.deepEqual((operation.input as { required?: string[] }).required?.sort(), [
        'expectedRevision',
        'id',
        'idempotencyKey',
      ]);
      const schedule = await create();
      const headerOnly = await op('invoices.schedules.pause', { id: schedule.id, expectedRevision: 1 });
      assertError(headerOnly, 400, 'invalid_input');
      assert.equal(headerOnly.error.field, 'idempotencyKey');
      const noRevision = await op('invoices.schedules.pause', {
        id: schedule.id,
        idempotencyKey: freshKey(),
      });
      assertError(noRevision, 400, 'invalid_input');
      assert.equal(noRevision.error.field, 'expectedRevision');
      const mismatch = await op(
        'invoices.schedules.pause',
        { id: schedule.id, expectedRevision: 1, idempotencyKey: freshKey() },
        { headers: { 'idempotency-key': freshKey() } },
      );
      assertError(mismatch, 400, 'idempotency_key_mismatch');
      const stale = await op('invoices.schedules.pause', {
        id: schedule.id,
        expectedRevision: 7,
        idempotencyKey: freshKey(),
      });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 1);
      assert.equal(await revisionOf(schedule.id), 1);

      const key = freshKey();
      const input = { id: schedule.id, expectedRevision: 1, idempotencyKey: key };
      const paused = await op('invoices.schedules.pause', input, { headers: { 'idempotency-key': key } });
      assert.equal(paused.status, 200, JSON.stringify(paused.body));
      assert.equal(paused.data.status, 'paused');
      assert.equal(paused.data.revision, 2);
      assert.equal(paused.data.next_run_date, null);
      assert.ok(paused.data.paused_at);
      const replay = await op('invoices.schedules.pause', input);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.data, paused.data);
      assert.equal(await revisionOf(schedule.id), 2);
      const again = await op('invoices.schedules.pause', {
        ...input,
        expectedRevision: 2,
        idempotencyKey: freshKey(),
      });
      assertError(again, 409, 'invalid_state');
      assert.equal(again.error.state, 'paused');
      const types = (await eventsOf(app, String(schedule.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.schedule.created', 'invoice.schedule.paused']);
    });

    it('resume skips the slots missed while paused; cancel is final', async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const schedule = await create({
        cadence: { kind: 'monthly', dayOfMonth: 20 },
        startDate: '2026-01-01',
      });
      assert.equal(schedule.next_run_date, '2026-01-20');
      const paused = await op('invoices.schedules.pause', {
        id: schedule.id,
        expectedRevision: 1,
        idempotencyKey: freshKey(),
      });
      assert.equal(paused.status, 200);
      app.clock.set('2026-04-02T12:00:00Z');
      const resumed = await op('invoices.schedules.resume', { id: schedule.id, expectedRevision: 2 });
      assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
      assert.equal(resumed.data.status, 'active');
      assert.equal(resumed.data.next_run_date, '2026-04-20');
      assertError(
        await op('invoices.schedules.resume', { id: schedule.id, expectedRevision: 3 }),
        409,
        'invalid_state',
      );
      const cancelled = await op('invoices.schedules.cancel', { id: schedule.id, expectedRevision: 3 });
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.data.status, 'cancelled');
      assert.equal(cancelled.data.next_run_date, null);
      for (const name of [
        'invoices.schedules.pause',
        'invoices.schedules.resume',
        'invoices.schedules.cancel',
      ]) {
        const res = await op(name, { id: schedule.id, expectedRevision: 4, idempotencyKey: freshKey() });
        assertError(res, 409, 'invalid_state', name);
        assert.equal(res.error.state, 'cancelled');
      }
      assertError(
        await op('invoices.schedules.update', { id: schedule.id, expectedRevision: 4, name: 'again' }),
        409,
        'invalid_state',
      );
    });

    it('resuming after the end date passed completes the schedule', async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const schedule = await create({
        startDate: '2026-01-15',
        end: { kind: 'on_date', date: '2026-02-28' },
      });
      await op('invoices.schedules.pause', {
        id: schedule.id,
        expectedRevision: 1,
        idempotencyKey: freshKey(),
      });
      app.clock.set('2026-03-05T12:00:00Z');
      const resumed = await op('invoices.schedules.resume', { id: schedule.id, expectedRevision: 2 });
      assert.equal(resumed.data.status, 'completed');
      const types = (await eventsOf(app, String(schedule.id))).map((e) => e.type);
      assert.deepEqual(types.slice(-2), ['invoice.schedule.resumed', 'invoice.schedule.completed']);
    });

    it("uses the given time zone for the first run (default: the organization's)", async () => {
      // 2026-01-31T06:00Z is still Jan 30 in Los Angeles, already Jan 31 in UTC.
      app.clock.set('2026-01-31T06:00:00Z');
      const la = await create({ timeZone: 'America/Los_Angeles', startDate: '2026-01-01' });
      assert.equal(la.next_run_date, '2026-01-31');
      const utc = await create({ startDate: '2026-01-01', cadence: { kind: 'monthly', dayOfMonth: 30 } });
      assert.equal(utc.next_run_date, '2026-02-28');
    });
  });
}
