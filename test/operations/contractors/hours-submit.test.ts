import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Caller, TestApp } from '../../support/app.ts';
import { createCaller } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeContractor,
  makeRole,
  OTHER_ID,
  startWithMembers,
} from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.hours.* (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    let contractorId: string;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
      // 33.33 an hour: 7.25 h = 241.6425 -> 241.64; the half-even rule is exercised below.
      const role = await makeRole(app, admin, { hourlyRateMinor: '3333', currency: 'CAD' });
      contractorId = (await makeContractor(app, admin, { jobRoleId: role.id })).id;
    });
    after(() => app.close());

    const submit = caller(() => app, 'contractors.hours.submit');
    const update = caller(() => app, 'contractors.hours.update');
    const approve = caller(() => app, 'contractors.hours.approve');
    const reject = caller(() => app, 'contractors.hours.reject');
    const list = caller(() => app, 'contractors.hours.list');
    const stored = (id: string) =>
      app.services.db.kysely
        .selectFrom('contractor_hours')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    const day = (workDate: string, hours: string) => ({
      contractorId,
      workDate,
      hours,
      description: 'Ledger clean-up',
    });

    it('submits hours priced at the role rate in exact minor units, audited with an event', async () => {
      const res = await submit(finance, day('2026-09-21', '7.25'));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'submitted');
      assert.equal(res.data.hours, '7.25');
      assert.equal(res.data.rate_minor, '3333');
      assert.equal(res.data.amount_minor, '24164'); // 7.25 x 33.33 = 241.6425
      assert.equal(res.data.currency, 'CAD');
      assert.equal(res.data.submitted_by, 'member');
      const row = await stored(String(res.data.id));
      assert.equal(String(row.amount_minor), '24164');
      assert.equal(String(row.hours_hundredths), '725');
      assert.deepEqual(await auditFor(app, String(res.data.id)), [
        { operation: 'contractors.hours.submit', before: null, after: 1, actor: finance.memberId },
      ]);
      assert.equal((await eventsFor(app, String(res.data.id), 'hours.submitted')).length, 1);
    });

    it('rounds half to even: 0.50 h at 0.01 is 0, 1.50 h at 0.01 is 2 hundredths', async () => {
      const role = await makeRole(app, admin, { hourlyRateMinor: '1', currency: 'USD' });
      const c = await makeContractor(app, admin, { jobRoleId: role.id });
      const a = await submit(admin, { ...day('2026-09-01', '0.50'), contractorId: c.id });
      const b = await submit(admin, { ...day('2026-09-01', '1.50'), contractorId: c.id });
      assert.deepEqual([a.data.amount_minor, b.data.amount_minor], ['0', '2']);
    });

    it('updates while submitted (re-pricing), then approve and reject refuse other states', async () => {
      const h = (await submit(finance, day('2026-09-22', '8'))).data;
      const updated = await update(finance, { id: h.id, expectedRevision: 1, hours: '4.00' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.data.amount_minor, '13332');
      assert.equal(updated.data.revision, 2);
      assertError(await approve(finance, { id: h.id, expectedRevision: 1 }), 409, 'revision_conflict');
      const approved = await approve(finance, { id: h.id, expectedRevision: 2 });
      assert.equal(approved.status, 200);
      assert.equal(approved.data.status, 'approved');
      assert.equal((await stored(String(h.id))).status, 'approved');
      const again = await approve(finance, { id: h.id, expectedRevision: 3 });
      assertError(again, 409, 'hours_not_submitted', 'id');
      assert.equal(again.error.status, 'approved');
      assertError(
        await update(finance, { id: h.id, expectedRevision: 3, hours: '1' }),
        409,
        'hours_not_submitted',
      );
      assertError(
        await reject(finance, { id: h.id, expectedRevision: 3, reason: 'late' }),
        409,
        'hours_not_submitted',
      );
      assert.equal((await stored(String(h.id))).revision, 3);
    });

    it('rejects with a reason the contractor can read; rejected hours cannot be approved', async () => {
      const h = (await submit(finance, day('2026-09-23', '2'))).data;
      const res = await reject(admin, { id: h.id, expectedRevision: 1, reason: 'Holiday' });
      assert.equal(res.status, 200);
      assert.equal(res.data.status, 'rejected');
      assert.equal(res.data.rejection_reason, 'Holiday');
      assert.deepEqual(await eventsFor(app, String(h.id), 'hours.rejected'), [
        { type: 'hours.rejected', data: { contractorId, reason: 'Holiday' } },
      ]);
      assertError(await approve(admin, { id: h.id, expectedRevision: 2 }), 409, 'hours_not_submitted');
    });

    it('refuses a contractor without a role (rate_missing) and bad input, changing nothing', async () => {
      const norole = await makeContractor(app, admin);
      assertError(
        await submit(finance, { ...day('2026-09-21', '1'), contractorId: norole.id }),
        409,
        'rate_missing',
        'contractorId',
      );
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...day('2026-09-21', '0') }, 'hours'],
        [{ ...day('2026-09-21', '0.00') }, 'hours'],
        [{ ...day('2026-09-21', '24.01') }, 'hours'],
        [{ ...day('2026-09-21', '25') }, 'hours'],
        [{ ...day('2026-09-21', '1.255') }, 'hours'],
        [{ ...day('2026-09-21', '-1') }, 'hours'],
        [{ ...day('2026-02-30', '1') }, 'workDate'],
        [{ ...day('21/09/2026', '1') }, 'workDate'],
        [{ ...day('2026-09-21', '1'), description: '' }, 'description'],
        [{ ...day('2026-09-21', '1'), description: 'x'.repeat(501) }, 'description'],
        [{ ...day('2026-09-21', '1'), contractorId: 'nope' }, 'contractorId'],
      ];
      for (const [input, field] of cases) {
        const res = await submit(finance, input);
        assertError(res, 400, 'invalid_input', field);
        assert.match(res.error.message, /./);
      }
      assertError(
        await submit(finance, { ...day('2026-09-21', '1'), contractorId: OTHER_ID }),
        404,
        'not_found',
      );
      const count = await app.services.db.kysely
        .selectFrom('contractor_hours')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('contractor_id', '=', norole.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    it('lists by contractor and status, newest work date first, never another organization', async () => {
      const res = await list(finance, { contractorId, status: 'submitted' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const items = res.data.items as Array<Record<string, unknown>>;
      assert.ok(items.length >= 1);
      assert.ok(items.every((i) => i.status === 'submitted' && i.contractor_id === contractorId));
      const all = (await list(finance, { contractorId })).data.items as Array<Record<string, unknown>>;
      const dates = all.map((i) => String(i.work_date));
      assert.deepEqual(dates, [...dates].sort().reverse());
      const stranger = await createCaller(app);
      const theirs = await list(stranger, {});
      assert.deepEqual(theirs.data.items, []);
      const h = all[0] as { id: string; revision: number };
      assertError(await approve(stranger, { id: h.id, expectedRevision: h.revision }), 404, 'not_found');
    });
  });
}
