import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import { addDays, compareDates } from '../../src/invoicing/calendar.ts';
import { invoicingJobs } from '../../src/jobs/invoicing-jobs.ts';
import { createServices, type Services } from '../../src/services.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createParty } from './ops-support.ts';
import { createSchedule, eventTypes, invoicesOf, mailsOf, runsOf } from './schedules-support.ts';

async function runUntilIdle(services: Services): Promise<void> {
  for (const job of invoicingJobs) while ((await job.run(services)) > 0);
}

/**
 * Two workers, each with its own database connection(s) as two processes would have, run the
 * invoicing jobs at the same time every day for two months. Every slot must be made exactly once,
 * every notice sent once, and the invoice numbers stay gapless.
 */
for (const dialect of DIALECTS) {
  describe(`two workers racing (${dialect})`, () => {
    let app: TestApp;
    let second: Services;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      // PostgreSQL: a second pool, as a second process would have. SQLite: better-sqlite3 is
      // synchronous, so a second connection in the same process would wait on the lock while
      // blocking the event loop the first one needs; both workers share the connection instead
      // (Kysely runs their transactions one at a time, interleaved at every await).
      const db =
        dialect === 'postgres'
          ? openDatabase({
              databaseUrl: app.database.url,
              dataDir: app.database.env.ACCOUNTING_DATA_DIR,
              poolSize: 5,
            })
          : { ...app.services.db, close: async () => {} };
      second = await createServices(app.services.config, {
        db,
        clock: app.clock,
        logger: pino({ level: 'silent' }),
      });
    });
    after(async () => {
      await second.db.close();
      await app.close();
    });

    it('makes every slot once and sends every notice once', async () => {
      app.clock.set('2040-01-01T12:00:00Z');
      const party = await createParty(app, admin);
      const schedules = [];
      for (let i = 0; i < 4; i += 1) {
        schedules.push(
          await createSchedule(app, admin, party.id, {
            cadence: { kind: 'weekly' },
            startDate: addDays('2040-01-02', i),
            autoSend: i % 2 === 0,
          }),
        );
      }
      schedules.push(
        await createSchedule(app, admin, party.id, {
          cadence: { kind: 'monthly', dayOfMonth: 'last' },
          startDate: '2040-01-01',
          autoSend: true,
        }),
      );
      for (let day = '2040-01-01'; compareDates(day, '2040-02-29') <= 0; day = addDays(day, 1)) {
        app.clock.set(`${day}T12:00:00Z`);
        await Promise.all([runUntilIdle(app.services), runUntilIdle(second)]);
      }
      for (const [i, made] of schedules.entries()) {
        const invoices = await invoicesOf(app, made.id);
        const dates = invoices.map((row) => row.issue_date);
        assert.equal(new Set(dates).size, dates.length, `duplicate invoice dates for schedule ${i}`);
        const expected =
          i < 4
            ? Array.from({ length: 9 }, (_, week) => addDays(addDays('2040-01-02', i), 7 * week)).filter(
                (date) => compareDates(date, '2040-02-29') <= 0,
              )
            : ['2040-01-31', '2040-02-29'];
        assert.deepEqual(dates, expected, `schedule ${i}`);
        const runs = await runsOf(app, made.id);
        assert.deepEqual(
          runs.map((r) => r.run_date),
          expected,
        );
        assert.ok(runs.every((r) => r.outcome === (made.auto_send ? 'sent' : 'draft')));
      }
      const numbers = (
        await app.services.db.kysely
          .selectFrom('invoices')
          .select('number')
          .where('organization_id', '=', admin.organizationId)
          .where('number', 'is not', null)
          .orderBy('number')
          .execute()
      ).map((row) => row.number);
      assert.deepEqual(
        numbers,
        numbers.map((_, n) => `INV-${String(n + 1).padStart(6, '0')}`),
      );
      const notices = await eventTypes(app, admin.organizationId, 'invoice.schedule.upcoming');
      const keys = notices.map((e) => `${e.subjectId} ${e.data.runDate}`);
      assert.equal(new Set(keys).size, keys.length, 'a notice was sent twice');
      assert.ok(notices.length >= 20);
      const mails = await mailsOf(app, admin.organizationId, 'invoice.schedule_upcoming');
      assert.equal(mails.length, notices.length);
    });
  });
}
