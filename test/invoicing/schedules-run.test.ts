import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createParty, type Json } from './ops-support.ts';
import {
  createSchedule,
  eventTypes,
  everyDay,
  getSchedule,
  invoicesOf,
  issueDates,
  mailsOf,
  runAt,
  runsOf,
  transition,
} from './schedules-support.ts';

/**
 * The recurring-invoice worker over many months with the test clock: the jobs run every day (or
 * at chosen instants) and the invoices each schedule made are compared with the calendar.
 */
for (const dialect of DIALECTS) {
  describe(`recurring invoice runs (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    const live: unknown[] = [];
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin);
    });
    after(() => app.close());

    /** A schedule for this test; cancelled afterwards so later clock jumps leave it alone. */
    const schedule = async (input: Json, caller = admin, partyId = party.id) => {
      const made = await createSchedule(app, caller, partyId, input);
      live.push(made.id);
      return made;
    };
    const adminEmail = async () =>
      (
        await app.services.db.kysely
          .selectFrom('members')
          .select('email')
          .where('id', '=', admin.memberId)
          .executeTakeFirstOrThrow()
      ).email;
    const cancelAll = async () => {
      for (const id of live.splice(0)) {
        const current = await getSchedule(app, admin, id);
        if (current.status === 'active' || current.status === 'paused')
          await transition(app, admin, 'cancel', id);
      }
    };

    it('monthly on the 31st across a leap year: Jan 31, Feb 29, Mar 31, Apr 30, ... each once', async () => {
      app.clock.set('2027-12-20T12:00:00Z');
      const made = await schedule({ cadence: { kind: 'monthly', dayOfMonth: 31 }, startDate: '2027-12-25' });
      await everyDay(app, '2027-12-20', '2029-03-05');
      assert.deepEqual(await issueDates(app, made.id), [
        '2027-12-31',
        '2028-01-31',
        '2028-02-29',
        '2028-03-31',
        '2028-04-30',
        '2028-05-31',
        '2028-06-30',
        '2028-07-31',
        '2028-08-31',
        '2028-09-30',
        '2028-10-31',
        '2028-11-30',
        '2028-12-31',
        '2029-01-31',
        '2029-02-28',
      ]);
      const invoices = await invoicesOf(app, made.id);
      assert.deepEqual(
        invoices.map((i) => i.schedule_occurrence),
        invoices.map((_, n) => n + 1),
      );
      assert.ok(invoices.every((i) => i.status === 'draft'));
      assert.equal(invoices[2]?.due_date, '2028-03-30'); // Feb 29 + 30 days of terms
      assert.equal(Number(invoices[0]?.total_minor), 113000);
      const runs = await runsOf(app, made.id);
      assert.deepEqual(
        runs.map((r) => r.run_date),
        invoices.map((i) => i.issue_date),
      );
      assert.ok(runs.every((r) => r.outcome === 'draft'));
      const current = await getSchedule(app, admin, made.id);
      assert.equal(current.occurrences_created, 15);
      assert.equal(current.next_run_date, '2029-03-31');
      await cancelAll();
    });

    it('monthly on the last day, quarterly and every two weeks', async () => {
      app.clock.set('2030-01-01T12:00:00Z');
      const last = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 'last' },
        startDate: '2030-01-01',
      });
      const quarterly = await schedule({
        cadence: { kind: 'quarterly', dayOfMonth: 15 },
        startDate: '2030-01-20',
      });
      const biweekly = await schedule({
        cadence: { kind: 'weekly', intervalWeeks: 2 },
        startDate: '2030-01-03',
      });
      await everyDay(app, '2030-01-01', '2030-07-31');
      assert.deepEqual(await issueDates(app, last.id), [
        '2030-01-31',
        '2030-02-28',
        '2030-03-31',
        '2030-04-30',
        '2030-05-31',
        '2030-06-30',
        '2030-07-31',
      ]);
      assert.deepEqual(await issueDates(app, quarterly.id), ['2030-02-15', '2030-05-15']);
      const fortnights = await issueDates(app, biweekly.id);
      assert.equal(fortnights.length, 15);
      assert.equal(fortnights[0], '2030-01-03');
      assert.equal(fortnights[14], '2030-07-18');
      await cancelAll();
    });

    it('yearly on Feb 29: Feb 28 in common years, Feb 29 in leap years, never a day early', async () => {
      app.clock.set('2028-02-01T12:00:00Z');
      const made = await schedule({ cadence: { kind: 'yearly', dayOfMonth: 29 }, startDate: '2028-02-29' });
      for (const [before, on] of [
        ['2028-02-28', '2028-02-29'],
        ['2029-02-27', '2029-02-28'],
        ['2030-02-27', '2030-02-28'],
        ['2031-02-27', '2031-02-28'],
        ['2032-02-28', '2032-02-29'],
      ] as const) {
        await runAt(app, `${before}T23:59:59Z`);
        const count = (await issueDates(app, made.id)).length;
        await runAt(app, `${on}T00:00:00Z`);
        assert.equal((await issueDates(app, made.id)).length, count + 1, on);
      }
      assert.deepEqual(await issueDates(app, made.id), [
        '2028-02-29',
        '2029-02-28',
        '2030-02-28',
        '2031-02-28',
        '2032-02-29',
      ]);
      await cancelAll();
    });

    it("runs at midnight of the schedule's time zone, not the server's", async () => {
      app.clock.set('2033-01-10T00:00:00Z');
      const auckland = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 1 },
        startDate: '2033-01-10',
        timeZone: 'Pacific/Auckland',
      });
      const losAngeles = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 1 },
        startDate: '2033-01-10',
        timeZone: 'America/Los_Angeles',
      });
      // Auckland is UTC+13 in January: its Feb 1 starts at Jan 31 11:00 UTC.
      await runAt(app, '2033-01-31T10:59:59Z');
      assert.deepEqual(await issueDates(app, auckland.id), []);
      await runAt(app, '2033-01-31T11:00:00Z');
      assert.deepEqual(await issueDates(app, auckland.id), ['2033-02-01']);
      // Los Angeles is UTC-8: its Feb 1 starts at Feb 1 08:00 UTC.
      await runAt(app, '2033-02-01T07:59:59Z');
      assert.deepEqual(await issueDates(app, losAngeles.id), []);
      await runAt(app, '2033-02-01T08:00:00Z');
      assert.deepEqual(await issueDates(app, losAngeles.id), ['2033-02-01']);
      await cancelAll();
    });

    it('stops after N invoices or on the end date, and reports completion once', async () => {
      app.clock.set('2034-01-01T12:00:00Z');
      const counted = await schedule({
        cadence: { kind: 'weekly' },
        startDate: '2034-01-02',
        end: { kind: 'after_count', count: 3 },
      });
      const dated = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 10 },
        startDate: '2034-01-01',
        end: { kind: 'on_date', date: '2034-03-10' },
      });
      await everyDay(app, '2034-01-01', '2034-05-01');
      assert.deepEqual(await issueDates(app, counted.id), ['2034-01-02', '2034-01-09', '2034-01-16']);
      assert.deepEqual(await issueDates(app, dated.id), ['2034-01-10', '2034-02-10', '2034-03-10']);
      for (const id of [counted.id, dated.id]) {
        const current = await getSchedule(app, admin, id);
        assert.equal(current.status, 'completed');
        assert.equal(current.next_run_date, null);
      }
      const completed = await eventTypes(app, admin.organizationId, 'invoice.schedule.completed');
      assert.equal(completed.filter((e) => e.subjectId === counted.id).length, 1);
      assert.equal(completed.filter((e) => e.subjectId === dated.id).length, 1);
    });

    it('nothing while paused, and no back-fill after resume; after_count still reaches its count', async () => {
      app.clock.set('2035-01-01T12:00:00Z');
      const made = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 5 },
        startDate: '2035-01-01',
        end: { kind: 'after_count', count: 4 },
      });
      await everyDay(app, '2035-01-01', '2035-02-10');
      assert.deepEqual(await issueDates(app, made.id), ['2035-01-05', '2035-02-05']);
      await transition(app, admin, 'pause', made.id);
      await everyDay(app, '2035-02-11', '2035-05-20');
      assert.deepEqual(await issueDates(app, made.id), ['2035-01-05', '2035-02-05']);
      const resumed = await transition(app, admin, 'resume', made.id);
      assert.equal(resumed.next_run_date, '2035-06-05');
      await everyDay(app, '2035-05-20', '2035-08-10');
      assert.deepEqual(await issueDates(app, made.id), [
        '2035-01-05',
        '2035-02-05',
        '2035-06-05',
        '2035-07-05',
      ]);
      assert.equal((await getSchedule(app, admin, made.id)).status, 'completed');
      // No run row exists for the paused months: they were skipped, not made late.
      assert.deepEqual(
        (await runsOf(app, made.id)).map((r) => r.run_date),
        ['2035-01-05', '2035-02-05', '2035-06-05', '2035-07-05'],
      );
    });

    it('catch-up after downtime: each missed slot once, in order; older than the window skipped', async () => {
      app.clock.set('2036-01-01T12:00:00Z');
      const made = await schedule({ cadence: { kind: 'weekly' }, startDate: '2036-01-01' });
      await runAt(app, '2036-01-01T12:00:00Z');
      // Workers down for 20 days: the three weekly slots are made at once, dated the day made.
      await runAt(app, '2036-01-21T12:00:00Z');
      const runs = await runsOf(app, made.id);
      assert.deepEqual(
        runs.map((r) => [r.run_date, r.outcome]),
        [
          ['2036-01-01', 'draft'],
          ['2036-01-08', 'draft'],
          ['2036-01-15', 'draft'],
        ],
      );
      assert.deepEqual(await issueDates(app, made.id), ['2036-01-01', '2036-01-21', '2036-01-21']);
      // Down for 60 days: slots more than 31 days old are skipped, the recent ones made.
      await runAt(app, '2036-03-21T12:00:00Z');
      const later = (await runsOf(app, made.id)).slice(3);
      const skipped = later.filter((r) => r.outcome === 'skipped').map((r) => r.run_date);
      const madeLate = later.filter((r) => r.outcome === 'draft').map((r) => r.run_date);
      assert.deepEqual(skipped, ['2036-01-22', '2036-01-29', '2036-02-05', '2036-02-12']);
      assert.deepEqual(madeLate, ['2036-02-19', '2036-02-26', '2036-03-04', '2036-03-11', '2036-03-18']);
      const events = await eventTypes(app, admin.organizationId, 'invoice.schedule.run_skipped');
      assert.deepEqual(
        events.filter((e) => e.subjectId === made.id).map((e) => e.data.runDates),
        [skipped],
      );
      // The admin and finance members are told, once, which dates to bill by hand.
      const notices = await mailsOf(app, admin.organizationId, 'invoice.schedule_run_skipped');
      assert.equal(notices.length, 1);
      assert.deepEqual(notices[0]?.to, [await adminEmail()]);
      assert.match(notices[0]?.subject ?? '', /skipped 4 dates/);
      for (const date of skipped) assert.ok(notices[0]?.text.includes(date), date);
      assert.equal((await issueDates(app, made.id)).length, 8);
      await cancelAll();
    });

    it('autoSend sends and emails each invoice; a party without email keeps a draft and reports it', async () => {
      app.clock.set('2037-01-01T12:00:00Z');
      const sent = await schedule({
        cadence: { kind: 'monthly', dayOfMonth: 2 },
        startDate: '2037-01-01',
        autoSend: true,
      });
      const noEmail = await createParty(app, admin, { email: undefined });
      const stuck = await schedule(
        { cadence: { kind: 'monthly', dayOfMonth: 2 }, startDate: '2037-01-01', autoSend: true },
        admin,
        noEmail.id,
      );
      await everyDay(app, '2037-01-01', '2037-02-03');
      const invoices = await invoicesOf(app, sent.id);
      assert.deepEqual(
        invoices.map((i) => [i.issue_date, i.status]),
        [
          ['2037-01-02', 'sent'],
          ['2037-02-02', 'sent'],
        ],
      );
      assert.ok(invoices.every((i) => /^INV-\d{6}$/.test(String(i.number))));
      const mails = await mailsOf(app, admin.organizationId, 'invoice.sent');
      assert.ok(mails.filter((m) => m.to.includes(String(party.email))).length >= 2);
      const kept = await invoicesOf(app, stuck.id);
      assert.deepEqual(
        kept.map((i) => [i.issue_date, i.status]),
        [
          ['2037-01-02', 'draft'],
          ['2037-02-02', 'draft'],
        ],
      );
      const runs = await runsOf(app, stuck.id);
      assert.deepEqual(
        runs.map((r) => [r.outcome, r.error_code]),
        [
          ['failed', 'party_email_missing'],
          ['failed', 'party_email_missing'],
        ],
      );
      const failed = (await eventTypes(app, admin.organizationId, 'invoice.schedule.run_failed')).filter(
        (e) => e.subjectId === stuck.id,
      );
      assert.deepEqual(
        failed.map((e) => [e.data.runDate, e.data.errorCode, e.data.draftInvoiceId]),
        kept.map((i) => [i.issue_date, 'party_email_missing', i.id]),
      );
      // Each failed run is mailed to the admin and finance members, with what to do about it.
      const notices = await mailsOf(app, admin.organizationId, 'invoice.schedule_run_failed');
      assert.deepEqual(
        notices.map((m) => m.to),
        [[await adminEmail()], [await adminEmail()]],
      );
      for (const [i, date] of ['2037-01-02', '2037-02-02'].entries()) {
        assert.match(notices[i]?.subject ?? '', new RegExp(`could not send its invoice for ${date}`));
        assert.match(notices[i]?.text ?? '', /the party has no email address/);
        assert.match(notices[i]?.text ?? '', /kept as a draft/);
      }
      await cancelAll();
    });
  });
}
