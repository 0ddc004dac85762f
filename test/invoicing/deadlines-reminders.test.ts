import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createParty, type Json } from './ops-support.ts';
import {
  createPlan,
  eventTypes,
  everyDay,
  getSchedule,
  mailsOf,
  pay,
  sentInvoice,
  transition,
} from './schedules-support.ts';

/**
 * "Deadline coming up" and overdue, produced by the worker with the test clock: each notice once,
 * on the right day in the right time zone; installments instead of their invoice while a plan is
 * live; nothing at all while the plan is paused.
 */
for (const dialect of DIALECTS) {
  describe(`deadlines and reminders (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      app.clock.set('2026-05-01T12:00:00Z');
      party = await createParty(app, admin, { name: 'Initech' });
    });
    after(() => app.close());

    const about = async (type: string, subjectId: unknown) =>
      (await eventTypes(app, admin.organizationId, type)).filter((e) => e.subjectId === subjectId);
    const noticeDays = async (type: string, subjectId: unknown) => {
      const rows = await app.services.db.kysely
        .selectFrom('events')
        .select('created_at')
        .where('type', '=', type)
        .where('subject_id', '=', String(subjectId))
        .orderBy('created_at')
        .execute();
      return rows.map((row) => new Date(String(row.created_at)).toISOString().slice(0, 10));
    };

    it('invoice.due_soon once (with an email to the party), then invoice.overdue once', async () => {
      app.clock.set('2026-05-01T12:00:00Z');
      const invoice = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-05-01',
        dueDate: '2026-05-20',
      });
      const paidEarly = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-05-01',
        dueDate: '2026-05-20',
      });
      await pay(app, admin, paidEarly.id, 100000n, '2026-05-01');
      await everyDay(app, '2026-05-01', '2026-06-10');
      assert.deepEqual(await noticeDays('invoice.due_soon', invoice.id), ['2026-05-17']);
      assert.deepEqual(await noticeDays('invoice.overdue', invoice.id), ['2026-05-21']);
      const [soon] = await about('invoice.due_soon', invoice.id);
      assert.deepEqual(soon?.data, {
        number: invoice.number,
        partyId: party.id,
        currency: 'CAD',
        totalMinor: '100000',
        balanceMinor: '100000',
        dueDate: '2026-05-20',
      });
      const mails = (await mailsOf(app, admin.organizationId, 'invoice.deadline_soon')).filter((m) =>
        m.subject.includes(String(invoice.number)),
      );
      assert.equal(mails.length, 1);
      assert.deepEqual(mails[0]?.to, [party.email]);
      assert.match(String(mails[0]?.text), /CAD 1,000\.00/);
      assert.deepEqual(await noticeDays('invoice.due_soon', paidEarly.id), []);
      assert.deepEqual(await noticeDays('invoice.overdue', paidEarly.id), []);
      const row = await app.services.db.kysely
        .selectFrom('invoices')
        .select(['overdue_at', 'due_soon_notified_at', 'status'])
        .where('id', '=', String(invoice.id))
        .executeTakeFirstOrThrow();
      assert.ok(row.overdue_at && row.due_soon_notified_at);
      assert.equal(row.status, 'sent');
      await pay(app, admin, invoice.id, 100000n, '2026-06-10');
    });

    it("uses the organization's time zone for the overdue day", async () => {
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ time_zone: 'Asia/Tokyo' })
        .where('id', '=', admin.organizationId)
        .execute();
      app.clock.set('2026-07-01T03:00:00Z');
      const invoice = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-07-01',
        dueDate: '2026-07-10',
      });
      // Tokyo is UTC+9: its July 11 begins at July 10 15:00 UTC.
      await everyDay(app, '2026-07-01', '2026-07-10', '14:59:59Z');
      assert.deepEqual(await about('invoice.overdue', invoice.id), []);
      await everyDay(app, '2026-07-10', '2026-07-10', '15:00:00Z');
      assert.equal((await about('invoice.overdue', invoice.id)).length, 1);
      await pay(app, admin, invoice.id, 100000n, '2026-07-11');
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ time_zone: 'UTC' })
        .where('id', '=', admin.organizationId)
        .execute();
    });

    it('installments are reminded and reported overdue one by one, the invoice itself is not', async () => {
      app.clock.set('2026-08-01T12:00:00Z');
      const invoice = await sentInvoice(app, admin, party.id, {
        issueDate: '2026-08-01',
        dueDate: '2026-08-05',
      });
      const plan = (
        await createPlan(app, admin, {
          invoiceId: invoice.id,
          equal: { count: 3, firstDueDate: '2026-08-10', interval: { kind: 'monthly' } },
        })
      ).data as Json;
      const [first, second, third] = (plan.installments as Json[]).map((i) => i.id);
      await everyDay(app, '2026-08-01', '2026-08-12');
      await pay(app, admin, invoice.id, 33334n, '2026-08-12');
      await everyDay(app, '2026-08-13', '2026-10-12');
      assert.deepEqual(await noticeDays('installment.due_soon', first), ['2026-08-07']);
      assert.deepEqual(await noticeDays('installment.overdue', first), ['2026-08-11']);
      assert.deepEqual(await noticeDays('installment.due_soon', second), ['2026-09-07']);
      assert.deepEqual(await noticeDays('installment.overdue', second), ['2026-09-11']);
      assert.deepEqual(await noticeDays('installment.due_soon', third), ['2026-10-07']);
      assert.deepEqual(await noticeDays('installment.paid', first), ['2026-08-13']);
      const [reminder] = await about('installment.due_soon', second);
      assert.deepEqual(reminder?.data, {
        scheduleId: plan.id,
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        sequence: 2,
        installmentCount: 3,
        partyId: party.id,
        currency: 'CAD',
        amountMinor: '33333',
        dueDate: '2026-09-10',
      });
      // The invoice's own due date (Aug 5) passed under the plan: no invoice-level notices.
      assert.deepEqual(await about('invoice.due_soon', invoice.id), []);
      assert.deepEqual(await about('invoice.overdue', invoice.id), []);
      const mails = (await mailsOf(app, admin.organizationId, 'installment.due_soon')).filter((m) =>
        m.subject.includes(String(invoice.number)),
      );
      assert.deepEqual(
        mails.map((m) => m.subject.match(/installment \d of 3/)?.[0]),
        ['installment 1 of 3', 'installment 2 of 3', 'installment 3 of 3'],
      );
      assert.ok(mails.every((m) => m.to[0] === party.email));
      const current = await getSchedule(app, admin, plan.id);
      assert.ok((current.installments as Json[]).every((i) => i.reminded_at !== null));
      await transition(app, admin, 'cancel', plan.id);
    });

    it('a paused plan sends nothing; after resume, installments that fell due meanwhile stay silent', async () => {
      app.clock.set('2027-01-01T12:00:00Z');
      const invoice = await sentInvoice(app, admin, party.id, {
        issueDate: '2027-01-01',
        dueDate: '2027-01-31',
      });
      const plan = (
        await createPlan(app, admin, {
          invoiceId: invoice.id,
          equal: { count: 3, firstDueDate: '2027-01-20', interval: { kind: 'monthly' } },
        })
      ).data as Json;
      const [first, second, third] = (plan.installments as Json[]).map((i) => i.id);
      await transition(app, admin, 'pause', plan.id);
      await everyDay(app, '2027-01-01', '2027-02-18');
      for (const id of [first, second, third]) {
        assert.deepEqual(await about('installment.due_soon', id), []);
        assert.deepEqual(await about('installment.overdue', id), []);
      }
      assert.deepEqual(
        await about('invoice.overdue', invoice.id),
        [],
        'a paused plan silences its invoice too',
      );
      await transition(app, admin, 'resume', plan.id);
      await everyDay(app, '2027-02-18', '2027-03-25');
      assert.deepEqual(await about('installment.overdue', first), [], 'fell due while paused');
      assert.deepEqual(await noticeDays('installment.due_soon', second), ['2027-02-18']);
      assert.deepEqual(await noticeDays('installment.overdue', second), ['2027-02-21']);
      assert.deepEqual(await noticeDays('installment.due_soon', third), ['2027-03-17']);
      assert.deepEqual(await noticeDays('installment.overdue', third), ['2027-03-21']);
      // Cancelling the plan hands the invoice back to its own deadline (long past): overdue once.
      await transition(app, admin, 'cancel', plan.id);
      await everyDay(app, '2027-03-26', '2027-03-28');
      assert.deepEqual(await noticeDays('invoice.overdue', invoice.id), ['2027-03-26']);
    });
  });
}
