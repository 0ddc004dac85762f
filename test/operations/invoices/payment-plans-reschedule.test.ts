import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createParty, eventsOf, type Json } from '../../invoicing/ops-support.ts';
import {
  createPlan,
  createSchedule,
  eventTypes,
  everyDay,
  getSchedule,
  mailsOf,
  pay,
  runAt,
  sentInvoice,
  transition,
} from '../../invoicing/schedules-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows as readAudit } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call, freshKey } from '../../support/http.ts';

/** invoices.paymentPlans.reschedule: paid installments stay, the rest is replaced and sums to what is left. */

const installments = (plan: Json) => plan.installments as Json[];
const amounts = (plan: Json) => installments(plan).map((i) => i.amount_minor);
const statuses = (plan: Json) => installments(plan).map((i) => i.status);
const dueDates = (plan: Json) => installments(plan).map((i) => i.due_date);
const sequences = (plan: Json) => installments(plan).map((i) => i.sequence);

for (const dialect of DIALECTS) {
  describe(`payment plan reschedule (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      app.clock.set('2026-03-01T12:00:00Z');
      party = await createParty(app, admin);
    });
    after(() => app.close());

    const invoice = (input: Json = {}) =>
      sentInvoice(app, admin, party.id, { issueDate: '2026-03-01', dueDate: '2026-03-31', ...input });
    const reschedule = (input: Json, caller: Caller = admin, key?: string) =>
      call(app.baseUrl, 'invoices.paymentPlans.reschedule', input, {
        token: caller.token,
        ...(key ? { idempotencyKey: key } : {}),
      });
    /** A sent 1000.00 invoice with a plan of three (33334, 33333, 33333) from `first`, monthly. */
    const planOfThree = async (first = '2026-03-10') => {
      const sent = await invoice();
      const res = await createPlan(app, admin, {
        invoiceId: sent.id,
        equal: { count: 3, firstDueDate: first, interval: { kind: 'monthly' } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { sent, plan: res.data as Json };
    };
    const installmentRows = (planId: unknown) =>
      app.services.db.kysely
        .selectFrom('payment_plan_installments')
        .select(['id', 'sequence', 'amount_minor', 'paid_threshold_minor', 'reminded_at', 'paid_at'])
        .where('schedule_id', '=', String(planId))
        .orderBy('sequence')
        .execute();
    const auditRows = async (planId: unknown) =>
      readAudit(
        app,
        { recordId: String(planId), operation: 'invoices.paymentPlans.reschedule' },
        { columns: ['operation', 'before_revision', 'after_revision'] },
      );

    it('keeps the paid installment; a partial payment counts toward the first new one; the last pays the invoice', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { sent, plan } = await planOfThree();
      const [firstId] = installments(plan).map((i) => i.id);
      // Installment 1 (33334) paid and 6666 toward installment 2; the worker has not run yet.
      await pay(app, admin, sent.id, 40000n, '2026-03-01');
      app.clock.set('2026-03-05T12:00:00Z');
      const res = await reschedule({
        id: plan.id,
        expectedRevision: 1,
        custom: [
          { dueDate: '2026-03-20', amountMinor: '26666' },
          { dueDate: '2026-04-20', amountMinor: '40000' },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const after = res.data as Json;
      assert.equal(after.revision, 2);
      assert.equal(after.status, 'active');
      assert.equal(after.amount_minor, '100000');
      assert.deepEqual(after.end, { kind: 'after_count', date: null, count: 3 });
      assert.equal(after.start_date, '2026-03-10');
      assert.equal(after.cadence, null);
      assert.deepEqual(sequences(after), [1, 2, 3]);
      assert.deepEqual(amounts(after), ['33334', '26666', '40000']);
      assert.deepEqual(dueDates(after), ['2026-03-10', '2026-03-20', '2026-04-20']);
      assert.deepEqual(statuses(after), ['paid', 'open', 'open']);
      // The kept installment is the same row, recorded paid by the reschedule itself.
      const [kept, second, third] = installments(after);
      assert.equal(kept?.id, firstId);
      assert.equal(kept?.paid_at, '2026-03-05T12:00:00.000Z');
      assert.deepEqual(
        (await installmentRows(plan.id)).map((r) => [String(r.paid_threshold_minor), r.reminded_at]),
        [
          ['33334', null],
          ['60000', null],
          ['100000', null],
        ],
      );
      const get = await getSchedule(app, admin, plan.id);
      assert.deepEqual(get, after, 'the answer is the plan as invoices.schedules.get shows it');
      const events = await eventsOf(app, String(plan.id));
      assert.deepEqual(
        events.map((e) => e.type),
        ['invoice.schedule.created', 'invoice.schedule.rescheduled'],
      );
      assert.deepEqual(events[1]?.data, {
        kind: 'payment_plan',
        status: 'active',
        name: plan.name,
        partyId: party.id,
        currency: 'CAD',
        invoiceId: sent.id,
        nextRunDate: null,
        revision: 2,
        installmentCount: 3,
        keptCount: 1,
        rescheduledMinor: '66666',
        firstDueDate: '2026-03-20',
      });
      assert.deepEqual(await auditRows(plan.id), [
        { operation: 'invoices.paymentPlans.reschedule', before_revision: 1, after_revision: 2 },
      ]);

      // 20000 more reaches the new second installment (33334 + 26666), not the third.
      await pay(app, admin, sent.id, 20000n, '2026-03-05');
      assert.deepEqual(statuses(await getSchedule(app, admin, plan.id)), ['paid', 'paid', 'open']);
      const paidInvoice = await pay(app, admin, sent.id, 40000n, '2026-03-05');
      assert.equal(paidInvoice.status, 'paid');
      await runAt(app, '2026-03-05T13:00:00Z');
      const done = await getSchedule(app, admin, plan.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual(statuses(done), ['paid', 'paid', 'paid']);
      const paidEvents = (await eventTypes(app, admin.organizationId, 'installment.paid')).filter(
        (e) => e.data.scheduleId === plan.id,
      );
      assert.deepEqual(
        paidEvents
          .map((e) => [e.subjectId, e.data.sequence, e.data.amountMinor, e.data.installmentCount])
          .sort((a, b) => Number(a[1]) - Number(b[1])),
        [
          [firstId, 1, '33334', 3],
          [second?.id, 2, '26666', 3],
          [third?.id, 3, '40000', 3],
        ],
      );
    });

    it('equal split of a paused plan: stays paused, cadence follows the new split', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { plan } = await planOfThree('2026-04-01');
      const paused = await transition(app, admin, 'pause', plan.id);
      const res = await reschedule({
        id: plan.id,
        expectedRevision: paused.revision,
        equal: { count: 4, firstDueDate: '2026-03-16', interval: { kind: 'weekly', every: 2 } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const after = res.data as Json;
      assert.equal(after.status, 'paused');
      assert.equal(after.revision, Number(paused.revision) + 1);
      assert.deepEqual(amounts(after), ['25000', '25000', '25000', '25000']);
      assert.deepEqual(dueDates(after), ['2026-03-16', '2026-03-30', '2026-04-13', '2026-04-27']);
      assert.deepEqual(sequences(after), [1, 2, 3, 4]);
      assert.equal(after.start_date, '2026-03-16');
      assert.deepEqual(after.end, { kind: 'after_count', date: null, count: 4 });
      assert.deepEqual(after.cadence, {
        kind: 'weekly',
        interval_weeks: 2,
        day_of_month: null,
        interval_months: null,
      });
      // None of the old installments is left.
      const oldIds = new Set(installments(plan).map((i) => i.id));
      assert.ok(installments(after).every((i) => !oldIds.has(i.id)));
      assert.equal((await installmentRows(plan.id)).length, 4);
      await transition(app, admin, 'cancel', plan.id);
    });

    it('one new installment is enough after a paid one; a payment may already cover new installments', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { sent, plan } = await planOfThree();
      await pay(app, admin, sent.id, 33334n, '2026-03-01');
      await runAt(app, '2026-03-01T13:00:00Z');
      // Nothing paid would need two; here one is kept, so one is allowed.
      const single = await reschedule({
        id: plan.id,
        expectedRevision: 1,
        custom: [{ dueDate: '2026-06-30', amountMinor: '66666' }],
      });
      assert.equal(single.status, 200, JSON.stringify(single.body));
      assert.deepEqual(amounts(single.data as Json), ['33334', '66666']);
      assert.deepEqual(statuses(single.data as Json), ['paid', 'open']);
      // 10000 paid toward the last; a new split whose first part is smaller is partly paid at once.
      await pay(app, admin, sent.id, 10000n, '2026-03-01');
      const covered = await reschedule({
        id: plan.id,
        expectedRevision: 2,
        custom: [
          { dueDate: '2026-04-01', amountMinor: '6666' },
          { dueDate: '2026-05-01', amountMinor: '60000' },
        ],
      });
      assert.equal(covered.status, 200, JSON.stringify(covered.body));
      const after = covered.data as Json;
      assert.deepEqual(amounts(after), ['33334', '6666', '60000']);
      assert.deepEqual(statuses(after), ['paid', 'paid', 'open']);
      assert.deepEqual(sequences(after), [1, 2, 3]);
      assert.ok(installments(after)[1]?.paid_at, 'recorded in the same transaction');
      const paid = (await eventTypes(app, admin.organizationId, 'installment.paid')).filter(
        (e) => e.data.scheduleId === plan.id,
      );
      assert.deepEqual(paid.map((e) => Number(e.data.sequence)).sort(), [1, 2]);
      await transition(app, admin, 'cancel', plan.id);
    });

    it('refuses bad input with 400 naming the field, and sums that do not match', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { sent, plan } = await planOfThree();
      await pay(app, admin, sent.id, 40000n, '2026-03-01');
      app.clock.set('2026-03-05T12:00:00Z');
      const base = { id: plan.id, expectedRevision: 1 };
      const equal = { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } };
      const cases: Array<[Json, number, string, string]> = [
        [{}, 400, 'invalid_input', 'equal'],
        [{ equal, custom: [{ dueDate: '2026-04-01', amountMinor: '66666' }] }, 400, 'invalid_input', 'equal'],
        [{ equal, extra: true }, 400, 'unknown_field', 'extra'],
        [{ equal: { ...equal, count: 0 } }, 400, 'invalid_input', 'equal.count'],
        [{ equal: { ...equal, count: 121 } }, 400, 'invalid_input', 'equal.count'],
        // The plan keeps at most 120 installments: one is kept, so 120 new ones are too many.
        [{ equal: { ...equal, count: 120 } }, 400, 'invalid_input', 'equal.count'],
        [{ equal: { ...equal, firstDueDate: '2026-03-04' } }, 400, 'invalid_input', 'equal.firstDueDate'],
        // Not before the paid installment's due date (2026-03-10) either.
        [{ equal: { ...equal, firstDueDate: '2026-03-10' } }, 400, 'invalid_input', 'equal.firstDueDate'],
        [
          {
            custom: [
              { dueDate: '2026-04-01', amountMinor: '0' },
              { dueDate: '2026-05-01', amountMinor: '66666' },
            ],
          },
          400,
          'invalid_input',
          'custom.0.amountMinor',
        ],
        [
          {
            custom: [
              { dueDate: '2026-05-01', amountMinor: '33333' },
              { dueDate: '2026-04-01', amountMinor: '33333' },
            ],
          },
          400,
          'invalid_input',
          'custom.1.dueDate',
        ],
        [{ custom: [] }, 400, 'invalid_input', 'custom'],
        [
          { custom: [{ dueDate: '2026-04-01', amountMinor: '60000' }] },
          400,
          'installments_sum_mismatch',
          'custom',
        ],
        [{ id: 'not-a-uuid', equal }, 400, 'invalid_input', 'id'],
        [{ expectedRevision: 0, equal }, 400, 'invalid_input', 'expectedRevision'],
      ];
      for (const [input, status, code, field] of cases) {
        const res = await reschedule({ ...base, ...input });
        assertError(res, status, code, JSON.stringify(input));
        assert.equal(res.error.field, field, JSON.stringify(input));
      }
      // What is left: the total minus the paid installment (the partial 6666 counts toward the new ones).
      const mismatch = await reschedule({
        ...base,
        custom: [
          { dueDate: '2026-04-01', amountMinor: '30000' },
          { dueDate: '2026-05-01', amountMinor: '30000' },
        ],
      });
      assertError(mismatch, 400, 'installments_sum_mismatch');
      assert.equal(mismatch.error.balance_minor, '66666');
      assert.equal(mismatch.error.sum_minor, '60000');
      // Nothing changed.
      const same = await getSchedule(app, admin, plan.id);
      assert.equal(same.revision, 1);
      assert.deepEqual(amounts(same), ['33334', '33333', '33333']);
      assert.deepEqual(await auditRows(plan.id), []);
      await transition(app, admin, 'cancel', plan.id);
    });

    it('with nothing paid a plan still needs two installments; a recurring schedule is not a plan', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { plan } = await planOfThree();
      const one = await reschedule({
        id: plan.id,
        expectedRevision: 1,
        equal: { count: 1, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } },
      });
      assertError(one, 400, 'invalid_input');
      assert.equal(one.error.field, 'equal.count');
      const oneCustom = await reschedule({
        id: plan.id,
        expectedRevision: 1,
        custom: [{ dueDate: '2026-04-01', amountMinor: '100000' }],
      });
      assertError(oneCustom, 400, 'invalid_input');
      assert.equal(oneCustom.error.field, 'custom');
      const recurring = await createSchedule(app, admin, party.id, {
        cadence: { kind: 'weekly' },
        startDate: '2026-03-02',
      });
      const refused = await reschedule({
        id: recurring.id,
        expectedRevision: recurring.revision,
        equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } },
      });
      assertError(refused, 400, 'invalid_input');
      assert.equal(refused.error.field, 'id');
      await transition(app, admin, 'cancel', plan.id);
      await transition(app, admin, 'cancel', recurring.id);
    });

    it('409: stale revision, cancelled or completed plan, invoice already paid; 404 for another organization', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const equal = { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } };
      const { plan } = await planOfThree();
      const stale = await reschedule({ id: plan.id, expectedRevision: 2, equal });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 1);

      const other = await createCaller(app);
      const foreign = await reschedule({ id: plan.id, expectedRevision: 1, equal }, other);
      assertError(foreign, 404, 'not_found');
      assert.equal(foreign.error.field, 'id');
      assertError(await reschedule({ id: randomUUID(), expectedRevision: 1, equal }), 404, 'not_found');

      const cancelled = await transition(app, admin, 'cancel', plan.id);
      const refused = await reschedule({ id: plan.id, expectedRevision: cancelled.revision, equal });
      assertError(refused, 409, 'invalid_state');
      assert.equal(refused.error.state, 'cancelled');

      // Paid before the worker noticed: the plan is still active, its invoice is not.
      const { sent, plan: settled } = await planOfThree();
      await pay(app, admin, sent.id, 100000n, '2026-03-01');
      const early = await reschedule({ id: settled.id, expectedRevision: 1, equal });
      assertError(early, 409, 'invalid_state');
      assert.equal(early.error.state, 'paid');
      await runAt(app, '2026-03-01T13:00:00Z');
      const completed = await getSchedule(app, admin, settled.id);
      assert.equal(completed.status, 'completed');
      const late = await reschedule({ id: settled.id, expectedRevision: completed.revision, equal });
      assertError(late, 409, 'invalid_state');
      assert.equal(late.error.state, 'completed');
    });

    it('finance members may reschedule; a read-only key may not', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { plan } = await planOfThree();
      const equal = { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } };
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const denied = await reschedule({ id: plan.id, expectedRevision: 1, equal }, reader);
      assertError(denied, 403, 'insufficient_scope');
      const finance = await createCaller(app, { organizationId: admin.organizationId, role: 'finance' });
      const ok = await reschedule({ id: plan.id, expectedRevision: 1, equal }, finance);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(amounts(ok.data as Json), ['50000', '50000']);
      await transition(app, admin, 'cancel', plan.id);
    });

    it('a retry with the same key replays the answer and changes the plan once', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const { plan } = await planOfThree();
      const input = {
        id: plan.id,
        expectedRevision: 1,
        equal: { count: 2, firstDueDate: '2026-04-15', interval: { kind: 'weekly' } },
      };
      const key = freshKey();
      const first = await reschedule(input, admin, key);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const second = await reschedule(input, admin, key);
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(second.body, first.body);
      // In the body too (as MCP sends it), equal to the header's.
      const third = await reschedule({ ...input, idempotencyKey: key }, admin, key);
      assert.deepEqual(third.body, first.body);
      const current = await getSchedule(app, admin, plan.id);
      assert.equal(current.revision, 2);
      assert.deepEqual(current.installments, (first.data as Json).installments);
      assert.equal((await auditRows(plan.id)).length, 1);
      const rescheduled = (await eventsOf(app, String(plan.id))).filter(
        (e) => e.type === 'invoice.schedule.rescheduled',
      );
      assert.equal(rescheduled.length, 1);
      const reused = await reschedule({ ...input, equal: { ...input.equal, count: 3 } }, admin, key);
      assertError(reused, 400, 'idempotency_key_reused');
      await transition(app, admin, 'cancel', plan.id);
    });

    it('new installments are reminded on their own; deleted ones never again', async () => {
      app.clock.set('2026-05-01T12:00:00Z');
      const sent = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-05-01',
        dueDate: '2026-05-31',
      });
      const plan = (
        await createPlan(app, admin, {
          invoiceId: sent.id,
          equal: { count: 2, firstDueDate: '2026-05-03', interval: { kind: 'monthly' } },
        })
      ).data as Json;
      const [oldFirst, oldSecond] = installments(plan).map((i) => i.id);
      await runAt(app, '2026-05-01T12:00:00Z');
      const reminded = await getSchedule(app, admin, plan.id);
      assert.ok(installments(reminded)[0]?.reminded_at, 'the old first installment was reminded');
      const res = await reschedule({
        id: plan.id,
        expectedRevision: reminded.revision,
        custom: [
          { dueDate: '2026-05-03', amountMinor: '30000' },
          { dueDate: '2026-05-20', amountMinor: '70000' },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [newFirst, newSecond] = installments(res.data as Json);
      assert.equal(newFirst?.reminded_at, null);
      await everyDay(app, '2026-05-01', '2026-05-21', '13:00:00Z');
      const days = async (type: string, id: unknown) =>
        (await eventTypes(app, admin.organizationId, type))
          .filter((e) => e.subjectId === id)
          .map((e) => [e.data.sequence, e.data.amountMinor, e.data.dueDate]);
      assert.deepEqual(await days('installment.due_soon', newFirst?.id), [[1, '30000', '2026-05-03']]);
      assert.deepEqual(await days('installment.overdue', newFirst?.id), [[1, '30000', '2026-05-03']]);
      assert.deepEqual(await days('installment.due_soon', newSecond?.id), [[2, '70000', '2026-05-20']]);
      assert.deepEqual(await days('installment.overdue', newSecond?.id), [[2, '70000', '2026-05-20']]);
      assert.deepEqual(await days('installment.due_soon', oldFirst), [[1, '50000', '2026-05-03']]);
      assert.deepEqual(await days('installment.overdue', oldFirst), []);
      assert.deepEqual(await days('installment.due_soon', oldSecond), []);
      const mails = (await mailsOf(app, admin.organizationId, 'installment.due_soon')).filter((m) =>
        m.subject.includes(String(sent.number)),
      );
      assert.equal(mails.length, 3);
      assert.match(String(mails[1]?.text), /CAD 300\.00/);
      assert.ok(installments(await getSchedule(app, admin, plan.id)).every((i) => i.reminded_at !== null));
      await transition(app, admin, 'cancel', plan.id);
    });
  });
}
