import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createParty, eventsOf, type Json } from '../../invoicing/ops-support.ts';
import {
  createPlan,
  getSchedule,
  pay,
  runAt,
  sentInvoice,
  transition,
} from '../../invoicing/schedules-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call, freshKey } from '../../support/http.ts';

const amounts = (plan: Json) => (plan.installments as Json[]).map((i) => i.amount_minor);
const statuses = (plan: Json) => (plan.installments as Json[]).map((i) => i.status);

for (const dialect of DIALECTS) {
  describe(`payment plans (${dialect})`, () => {
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

    it('splits the balance left after a partial payment into equal monthly installments', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const sent = await invoice({
        lines: [{ description: 'Build', quantity: '1', unitAmountMinor: '100001' }],
      });
      await pay(app, admin, sent.id, 1n, '2026-03-01');
      const res = await createPlan(app, admin, {
        invoiceId: sent.id,
        equal: { count: 3, firstDueDate: '2026-03-31', interval: { kind: 'monthly' } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const plan = res.data as Json;
      assert.equal(plan.kind, 'payment_plan');
      assert.equal(plan.status, 'active');
      assert.equal(plan.invoice_id, sent.id);
      assert.equal(plan.party_id, party.id);
      assert.equal(plan.amount_minor, '100000');
      assert.equal(plan.name, `Payment plan for invoice ${sent.number}`);
      assert.deepEqual(amounts(plan), ['33334', '33333', '33333']);
      assert.deepEqual(
        (plan.installments as Json[]).map((i) => i.due_date),
        ['2026-03-31', '2026-04-30', '2026-05-31'],
      );
      assert.deepEqual(statuses(plan), ['open', 'open', 'open']);
      assert.deepEqual(plan.end, { kind: 'after_count', date: null, count: 3 });
      const types = (await eventsOf(app, String(plan.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.schedule.created']);
      const listed = await call(
        app.baseUrl,
        'invoices.schedules.list',
        { invoiceId: sent.id },
        { token: admin.token },
      );
      assert.deepEqual(
        (listed.data.items as Json[]).map((i) => i.id),
        [plan.id],
      );
    });

    it('accepts custom installments that sum exactly to the balance, and refuses the rest', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const sent = await invoice();
      const custom = [
        { dueDate: '2026-03-15', amountMinor: '50000' },
        { dueDate: '2026-04-15', amountMinor: '30000' },
        { dueDate: '2026-06-01', amountMinor: '20000' },
      ];
      const cases: Array<[Json, number, string, string | undefined]> = [
        [{ custom: custom.slice(0, 2) }, 400, 'installments_sum_mismatch', 'custom'],
        [
          { custom: [{ ...custom[1] }, { ...custom[0] }, { ...custom[2] }] },
          400,
          'invalid_input',
          'custom.1.dueDate',
        ],
        [
          { custom: [{ dueDate: '2026-02-28', amountMinor: '50000' }, ...custom.slice(1)] },
          400,
          'invalid_input',
          'custom.0.dueDate',
        ],
        [
          { custom: [{ ...custom[0], amountMinor: '0' }, ...custom.slice(1)] },
          400,
          'invalid_input',
          'custom.0.amountMinor',
        ],
        [{ custom: [custom[0]] }, 400, 'invalid_input', 'custom'],
        [{}, 400, 'invalid_input', 'equal'],
        [
          { custom, equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'weekly' } } },
          400,
          'invalid_input',
          'equal',
        ],
        [
          { equal: { count: 2, firstDueDate: '2026-02-01', interval: { kind: 'weekly' } } },
          400,
          'invalid_input',
          'equal.firstDueDate',
        ],
        [
          { equal: { count: 121, firstDueDate: '2026-04-01', interval: { kind: 'weekly' } } },
          400,
          'invalid_input',
          'equal.count',
        ],
        [
          { equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly', every: 13 } } },
          400,
          'invalid_input',
          'equal.interval',
        ],
        [{ invoiceId: randomUUID(), custom }, 404, 'not_found', 'invoiceId'],
      ];
      for (const [input, status, code, field] of cases) {
        const res = await createPlan(app, admin, { invoiceId: sent.id, ...input });
        assertError(res, status, code, JSON.stringify(input));
        assert.equal(res.error.field, field, JSON.stringify(input));
      }
      const mismatch = await createPlan(app, admin, { invoiceId: sent.id, custom: custom.slice(0, 2) });
      assert.equal(mismatch.error.balance_minor, '100000');
      assert.equal(mismatch.error.sum_minor, '80000');
      const ok = await createPlan(app, admin, { invoiceId: sent.id, custom, name: 'Three parts' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(amounts(ok.data as Json), ['50000', '30000', '20000']);
      assert.equal(ok.data.cadence, null);
      const again = await createPlan(app, admin, { invoiceId: sent.id, custom });
      assertError(again, 409, 'payment_plan_exists');
      assert.equal(again.error.plan_id, ok.data.id);
      await transition(app, admin, 'cancel', ok.data.id);
      const replaced = await createPlan(app, admin, { invoiceId: sent.id, custom });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    });

    it('refuses drafts, paid and voided invoices with 409 invalid_state', async () => {
      const draft = await call(
        app.baseUrl,
        'invoices.create',
        {
          partyId: party.id,
          currency: 'CAD',
          lines: [{ description: 'x', quantity: '1', unitAmountMinor: '500' }],
          dueDate: '2026-04-01',
        },
        { token: admin.token },
      );
      const res = await createPlan(app, admin, {
        invoiceId: draft.data.id,
        equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'weekly' } },
      });
      assertError(res, 409, 'invalid_state');
      assert.equal(res.error.state, 'draft');
      const paid = await invoice();
      await pay(app, admin, paid.id, 100000n, '2026-03-01');
      const refused = await createPlan(app, admin, {
        invoiceId: paid.id,
        equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'weekly' } },
      });
      assertError(refused, 409, 'invalid_state');
      assert.equal(refused.error.state, 'paid');
    });

    it('a plan only takes a new name on update', async () => {
      const sent = await invoice();
      const plan = (
        await createPlan(app, admin, {
          invoiceId: sent.id,
          equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'weekly', every: 2 } },
        })
      ).data as Json;
      assert.deepEqual(
        (plan.installments as Json[]).map((i) => i.due_date),
        ['2026-04-01', '2026-04-15'],
      );
      const refused = await call(
        app.baseUrl,
        'invoices.schedules.update',
        { id: plan.id, expectedRevision: 1, autoSend: true },
        { token: admin.token },
      );
      assertError(refused, 400, 'invalid_input');
      assert.equal(refused.error.field, 'autoSend');
      const renamed = await call(
        app.baseUrl,
        'invoices.schedules.update',
        { id: plan.id, expectedRevision: 1, name: 'Spread out' },
        { token: admin.token },
      );
      assert.equal(renamed.data.name, 'Spread out');
      assert.equal(renamed.data.revision, 2);
    });

    it('each installment is paid on its own; the last one pays the invoice and completes the plan', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const sent = await invoice();
      const plan = (
        await createPlan(app, admin, {
          invoiceId: sent.id,
          equal: { count: 3, firstDueDate: '2026-03-10', interval: { kind: 'weekly' } },
        })
      ).data as Json;
      assert.deepEqual(amounts(plan), ['33334', '33333', '33333']);
      // Part of the first installment: nothing is paid yet.
      await pay(app, admin, sent.id, 30000n, '2026-03-01');
      assert.deepEqual(statuses(await getSchedule(app, admin, plan.id)), ['open', 'open', 'open']);
      await pay(app, admin, sent.id, 10000n, '2026-03-01');
      assert.deepEqual(statuses(await getSchedule(app, admin, plan.id)), ['paid', 'open', 'open']);
      await runAt(app, '2026-03-02T12:00:00Z');
      await runAt(app, '2026-03-20T12:00:00Z');
      const late = await getSchedule(app, admin, plan.id);
      assert.deepEqual(statuses(late), ['paid', 'overdue', 'open']);
      assert.ok((late.installments as Json[])[0]?.paid_at);
      const paidInvoice = await pay(app, admin, sent.id, 60000n, '2026-03-20');
      assert.equal(paidInvoice.status, 'paid');
      await runAt(app, '2026-03-20T13:00:00Z');
      const done = await getSchedule(app, admin, plan.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual(statuses(done), ['paid', 'paid', 'paid']);
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select(['type', 'subject_id'])
        .where('type', '=', 'installment.paid')
        .where('organization_id', '=', admin.organizationId)
        .execute();
      const ids = (done.installments as Json[]).map((i) => i.id);
      assert.deepEqual(events.map((e) => e.subject_id).sort(), [...ids].sort());
      const types = (await eventsOf(app, String(plan.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.schedule.created', 'invoice.schedule.completed']);
    });

    it('a cancelled plan is frozen: payments under its replacement never mark or announce it', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const sent = await invoice();
      const equal = { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } };
      const old = (await createPlan(app, admin, { invoiceId: sent.id, equal })).data as Json;
      // The first installment is reached, and the plan cancelled before the worker ran.
      await pay(app, admin, sent.id, 50000n, '2026-03-01');
      await transition(app, admin, 'cancel', old.id);
      const replacement = (await createPlan(app, admin, { invoiceId: sent.id, equal })).data as Json;
      assert.deepEqual(amounts(replacement), ['25000', '25000']);
      app.clock.set('2026-03-02T12:00:00Z');
      await pay(app, admin, sent.id, 25000n, '2026-03-02');
      await runAt(app, '2026-03-02T13:00:00Z');
      assert.deepEqual(statuses(await getSchedule(app, admin, replacement.id)), ['paid', 'open']);
      // The last payment pays the invoice: it reaches the old plan's second threshold too.
      app.clock.set('2026-03-03T12:00:00Z');
      await pay(app, admin, sent.id, 25000n, '2026-03-03');
      await runAt(app, '2026-03-03T13:00:00Z');
      await runAt(app, '2026-06-01T12:00:00Z');
      const done = await getSchedule(app, admin, replacement.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual(statuses(done), ['paid', 'paid']);
      const frozen = await getSchedule(app, admin, old.id);
      assert.equal(frozen.status, 'cancelled');
      // As it was when cancelled: the first paid (recorded by the cancel), the second open (its
      // due date had not come yet), however much is paid and however late it is now.
      assert.deepEqual(statuses(frozen), ['paid', 'open']);
      const [oldFirst, oldSecond] = frozen.installments as Json[];
      assert.equal(oldFirst?.paid_at, '2026-03-01T12:00:00.000Z');
      assert.equal(oldSecond?.paid_at, null);
      const paidEvents = await app.services.db.kysely
        .selectFrom('events')
        .select('subject_id')
        .where('type', '=', 'installment.paid')
        .where(
          'subject_id',
          'in',
          [...(frozen.installments as Json[]), ...(done.installments as Json[])].map((i) => String(i.id)),
        )
        .execute();
      assert.deepEqual(
        paidEvents.map((e) => e.subject_id).sort(),
        [oldFirst?.id, ...(done.installments as Json[]).map((i) => i.id)].map(String).sort(),
      );
      app.clock.set('2026-03-01T12:00:00Z');
    });

    it('pause works on plans with the same operation (409 on a stale revision)', async () => {
      const sent = await invoice();
      const plan = (
        await createPlan(app, admin, {
          invoiceId: sent.id,
          equal: { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } },
        })
      ).data as Json;
      const stale = await call(
        app.baseUrl,
        'invoices.schedules.pause',
        { id: plan.id, expectedRevision: 2, idempotencyKey: freshKey() },
        { token: admin.token },
      );
      assertError(stale, 409, 'revision_conflict');
      const paused = await transition(app, admin, 'pause', plan.id);
      assert.equal(paused.status, 'paused');
      assert.equal((paused.installments as Json[]).length, 2);
    });

    it('a settled invoice ends its plan, paused or not: paid completes it, voided cancels it', async () => {
      app.clock.set('2026-03-01T12:00:00Z');
      const equal = { count: 2, firstDueDate: '2026-04-01', interval: { kind: 'monthly' } };
      const paidInvoice = await invoice();
      const paidPlan = (await createPlan(app, admin, { invoiceId: paidInvoice.id, equal })).data as Json;
      await transition(app, admin, 'pause', paidPlan.id);
      await pay(app, admin, paidInvoice.id, 100000n, '2026-03-01');
      await runAt(app, '2026-03-01T13:00:00Z');
      assert.equal((await getSchedule(app, admin, paidPlan.id)).status, 'completed');

      const voided = await invoice();
      const voidPlan = (await createPlan(app, admin, { invoiceId: voided.id, equal })).data as Json;
      await transition(app, admin, 'pause', voidPlan.id);
      const current = await call(app.baseUrl, 'invoices.get', { id: voided.id }, { token: admin.token });
      const res = await call(
        app.baseUrl,
        'invoices.void',
        { id: voided.id, expectedRevision: current.data.revision },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Resumed before the worker noticed: the resume itself ends the plan.
      const resumed = await transition(app, admin, 'resume', voidPlan.id);
      assert.equal(resumed.status, 'cancelled');
      const types = (await eventsOf(app, String(voidPlan.id))).map((e) => e.type);
      assert.deepEqual(types.slice(-2), ['invoice.schedule.resumed', 'invoice.schedule.cancelled']);
    });

    it('property: installments always sum exactly to the balance, and paying them in turn pays the invoice', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.bigInt({ min: 12n, max: 9_000_000_000_000n }),
          fc.bigInt({ min: 0n, max: 1000n }),
          fc.integer({ min: 2, max: 12 }),
          async (total, paidFirst, count) => {
            app.clock.set('2026-03-01T12:00:00Z');
            const sent = await invoice({
              lines: [{ description: 'Work', quantity: '1', unitAmountMinor: total.toString() }],
            });
            const prepaid = paidFirst < total - BigInt(count) ? paidFirst : 0n;
            if (prepaid > 0n) await pay(app, admin, sent.id, prepaid, '2026-03-01');
            const res = await createPlan(app, admin, {
              invoiceId: sent.id,
              equal: { count, firstDueDate: '2026-03-02', interval: { kind: 'weekly' } },
            });
            assert.equal(res.status, 200, JSON.stringify(res.body));
            const parts = amounts(res.data as Json).map((amount) => BigInt(String(amount)));
            assert.equal(parts.length, count);
            assert.equal(
              parts.reduce((a, b) => a + b, 0n),
              total - prepaid,
            );
            for (const [i, part] of parts.entries()) {
              const after = await pay(app, admin, sent.id, part, '2026-03-01');
              const plan = await getSchedule(app, admin, res.data.id);
              assert.deepEqual(
                statuses(plan),
                parts.map((_, j) => (j <= i ? 'paid' : 'open')),
              );
              assert.equal(after.status, i === parts.length - 1 ? 'paid' : 'sent');
            }
          },
        ),
        { numRuns: 8 },
      );
    });
  });
}
