import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeContractor,
  makeRole,
  ok,
  startWithMembers,
} from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.payouts.* (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    let contractorId: string;
    const hoursIds: Record<string, string> = {};
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
      const role = await makeRole(app, admin, {
        hourlyRateMinor: '10000',
        currency: 'USD',
        payCadence: 'semimonthly',
      });
      contractorId = (await makeContractor(app, admin, { legalName: 'Grace Hopper', jobRoleId: role.id })).id;
      // 09-02 and 09-14 approved (first half), 09-16 approved (second half), 09-10 only submitted.
      for (const [day, state] of [
        ['2026-09-02', 'approved'],
        ['2026-09-14', 'approved'],
        ['2026-09-16', 'approved'],
        ['2026-09-10', 'submitted'],
      ] as const) {
        const h = await ok(app, finance, 'contractors.hours.submit', {
          contractorId,
          workDate: day,
          hours: '2.50',
          description: `Work ${day}`,
        });
        hoursIds[day] = h.id;
        if (state === 'approved')
          await ok(app, finance, 'contractors.hours.approve', { id: h.id, expectedRevision: 1 });
      }
    });
    after(() => app.close());

    const create = caller(() => app, 'contractors.payouts.create');
    const markPaid = caller(() => app, 'contractors.payouts.markPaid');
    const hoursRow = (id: string) =>
      app.services.db.kysely
        .selectFrom('contractor_hours')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    let payoutId: string;

    it('takes the approved hours of the semimonthly period plus fixed amounts, in the role currency', async () => {
      const res = await create(finance, {
        contractorId,
        periodEnd: '2026-09-15',
        fixedAmounts: [{ description: 'Laptop stipend', amountMinor: '5000' }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      payoutId = String(res.data.id);
      assert.equal(res.data.status, 'unpaid');
      assert.equal(res.data.currency, 'USD');
      assert.equal(res.data.pay_cadence, 'semimonthly');
      assert.deepEqual([res.data.period_start, res.data.period_end], ['2026-09-01', '2026-09-15']);
      assert.equal(res.data.amount_minor, '55000'); // 2 x 2.50 h x 100.00 + 50.00
      const lines = res.data.lines as Array<Record<string, unknown>>;
      assert.deepEqual(
        lines.map((l) => [l.kind, l.hours_id, l.amount_minor]),
        [
          ['hours', hoursIds['2026-09-02'], '25000'],
          ['hours', hoursIds['2026-09-14'], '25000'],
          ['fixed', null, '5000'],
        ],
      );
      assert.equal((await hoursRow(hoursIds['2026-09-02'] ?? '')).payout_id, payoutId);
      assert.equal((await hoursRow(hoursIds['2026-09-16'] ?? '')).payout_id, null);
      assert.equal((await hoursRow(hoursIds['2026-09-10'] ?? '')).payout_id, null);
      assert.deepEqual(await eventsFor(app, payoutId, 'payout.created'), [
        {
          type: 'payout.created',
          data: {
            contractorId,
            amountMinor: '55000',
            currency: 'USD',
            periodStart: '2026-09-01',
            periodEnd: '2026-09-15',
            hoursCount: 2,
          },
        },
      ]);
      // The same period again has nothing left to pay.
      const empty = await create(finance, { contractorId, periodEnd: '2026-09-15' });
      assertError(empty, 409, 'payout_empty', 'periodEnd');
      assert.equal(empty.error.period_start, '2026-09-01');
    });

    it('marks paid: hours become paid, a ledger entry posts to 7000, and it cannot be paid twice', async () => {
      assertError(
        await markPaid(finance, { id: payoutId, expectedRevision: 2, paidOn: '2026-09-20', reference: 'W1' }),
        409,
        'revision_conflict',
      );
      const res = await markPaid(finance, {
        id: payoutId,
        expectedRevision: 1,
        paidOn: '2026-09-20',
        reference: 'WIRE-1',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        [res.data.status, res.data.paid_on, res.data.reference, res.data.revision],
        ['paid', '2026-09-20', 'WIRE-1', 2],
      );
      const paid = await hoursRow(hoursIds['2026-09-02'] ?? '');
      assert.deepEqual([paid.status, paid.revision], ['paid', 3]);
      assert.equal((await hoursRow(hoursIds['2026-09-16'] ?? '')).status, 'approved');
      const entry = await app.services.db.kysely
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_allocations as a', 'a.entry_id', 'e.id')
        .innerJoin('books_categories as c', 'c.id', 'a.category_id')
        .select([
          'e.amount_minor',
          'e.entry_date',
          'e.currency',
          'e.counterparty',
          'c.code',
          'a.amount_minor as line',
        ])
        .where('e.source_type', '=', 'contractor_payout')
        .where('e.source_id', '=', payoutId)
        .execute();
      assert.deepEqual(
        entry.map((e) => [
          String(e.amount_minor),
          e.entry_date,
          e.currency,
          e.counterparty,
          e.code,
          String(e.line),
        ]),
        [['-55000', '2026-09-20', 'USD', 'Grace Hopper', '7000', '-55000']],
      );
      assert.deepEqual(
        (await auditFor(app, payoutId)).map((a) => [a.operation, a.before, a.after]),
        [
          ['contractors.payouts.create', null, 1],
          ['contractors.payouts.markPaid', 1, 2],
        ],
      );
      assert.equal((await eventsFor(app, payoutId, 'payout.paid')).length, 1);
      const again = await markPaid(finance, {
        id: payoutId,
        expectedRevision: 2,
        paidOn: '2026-09-21',
        reference: 'W2',
      });
      assertError(again, 409, 'payout_already_paid');
      const entries = await call(app.baseUrl, 'entries.list', {}, { token: finance.token });
      assert.equal(entries.status, 200, JSON.stringify(entries.body));
    });

    it('refuses a contractor without a role, bad amounts and dates, and other organizations', async () => {
      const norole = await makeContractor(app, admin);
      assertError(
        await create(finance, {
          contractorId: norole.id,
          periodEnd: '2026-09-30',
          fixedAmounts: [{ description: 'x', amountMinor: '1' }],
        }),
        409,
        'rate_missing',
      );
      for (const [input, field] of [
        [{ contractorId, periodEnd: '2026-13-01' }, 'periodEnd'],
        [
          { contractorId, periodEnd: '2026-09-30', fixedAmounts: [{ description: 'x', amountMinor: '0' }] },
          'fixedAmounts.0.amountMinor',
        ],
        [
          { contractorId, periodEnd: '2026-09-30', fixedAmounts: [{ description: 'x', amountMinor: '-5' }] },
          'fixedAmounts.0.amountMinor',
        ],
        [
          { contractorId, periodEnd: '2026-09-30', fixedAmounts: [{ description: 'x', amountMinor: '1.5' }] },
          'fixedAmounts.0.amountMinor',
        ],
        [
          { contractorId, periodEnd: '2026-09-30', fixedAmounts: [{ description: '', amountMinor: '1' }] },
          'fixedAmounts.0.description',
        ],
      ] as const) {
        assertError(await create(finance, input), 400, 'invalid_input', field);
      }
      const stranger = await createCaller(app);
      assertError(
        await create(stranger, { contractorId, periodEnd: '2026-09-30' }),
        404,
        'not_found',
        'contractorId',
      );
      assertError(
        await call(app.baseUrl, 'contractors.payouts.get', { id: payoutId }, { token: stranger.token }),
        404,
        'not_found',
      );
      const theirs = await call(app.baseUrl, 'contractors.payouts.list', {}, { token: stranger.token });
      assert.deepEqual(theirs.data.items, []);
    });

    it('lists and gets payouts with their lines', async () => {
      const second = await ok(app, finance, 'contractors.payouts.create', {
        contractorId,
        periodEnd: '2026-09-30',
      });
      assert.deepEqual([second.period_start, second.amount_minor], ['2026-09-16', '25000']);
      const unpaid = await call(
        app.baseUrl,
        'contractors.payouts.list',
        { contractorId, status: 'unpaid' },
        { token: finance.token },
      );
      assert.deepEqual(
        (unpaid.data.items as Array<{ id: string }>).map((p) => p.id),
        [second.id],
      );
      const all = await call(
        app.baseUrl,
        'contractors.payouts.list',
        { contractorId },
        { token: finance.token },
      );
      assert.deepEqual(
        (all.data.items as Array<{ id: string }>).map((p) => p.id),
        [second.id, payoutId],
      );
      const got = await ok(app, finance, 'contractors.payouts.get', { id: payoutId });
      assert.equal((got.lines as unknown[]).length, 3);
    });
  });
}
