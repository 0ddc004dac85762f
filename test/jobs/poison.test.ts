import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import { receiptsJobs } from '../../src/jobs/receipts-jobs.ts';
import { cardAccount, cardTransaction, paypalReceipt, suggestions } from '../operations/matching/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

const exportJob = booksJobs.filter((job) => job.name === 'entries.export');
const scanJob = receiptsJobs.filter((job) => job.name === 'receipts.match.transactions');

async function failures(app: TestApp, job: string, outcome: string): Promise<number> {
  const text = await app.services.metrics.registry.getSingleMetricAsString('accounting_job_failures_total');
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`accounting_job_failures_total{job="${job}",outcome="${outcome}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

for (const dialect of DIALECTS) {
  describe(`jobs isolate a poisoned row (${dialect})`, () => {
    let app: TestApp;
    let first: Caller;
    let second: Caller;

    before(async () => {
      app = await startTestApp(dialect);
      first = await createCaller(app);
      second = await createCaller(app);
    });
    after(async () => {
      await app?.close();
    });

    it('receipts.match.transactions skips a transaction it cannot scan and matches the others of both organizations', async () => {
      const healthy: Record<string, string> = {};
      for (const [name, caller] of [
        ['first', first],
        ['second', second],
      ] as const) {
        const card = await cardAccount(app, caller);
        await paypalReceipt(app, caller, `PP-${name}-${process.pid}`);
        const poisoned = await cardTransaction(app, caller, card, '2026-03-03', '-4990', 'PAYPAL *SPOTIFY');
        healthy[name] = (
          await cardTransaction(app, caller, card, '2026-03-03', '-4990', 'PAYPAL *SPOTIFY')
        ).id;
        // A date no scan can work with (PostgreSQL refuses the window around year 1; SQLite
        // stores text, so an impossible day), scanned first: it was created earliest.
        await app.database.db.kysely
          .updateTable('bank_transactions')
          .set({
            booked_date: dialect === 'postgres' ? '0001-01-01' : '0001-99-99',
            created_at: '2000-01-01T00:00:00.000Z',
            match_scanned_at: null,
          })
          .where('id', '=', poisoned.id)
          .execute();
        await app.database.db.kysely
          .updateTable('bank_transactions')
          .set({ match_scanned_at: null })
          .where('id', '=', healthy[name])
          .execute();
      }
      // Twice: the poisoned rows must not come first again and stop the run.
      await app.runJobs(scanJob);
      await app.runJobs(scanJob);
      const left = await app.database.db.kysely
        .selectFrom('bank_transactions')
        .select('id')
        .where('match_scanned_at', 'is', null)
        .execute();
      assert.deepEqual(left, []);
      for (const [name, caller] of [
        ['first', first],
        ['second', second],
      ] as const) {
        const found = await suggestions(app, caller, { transactionId: healthy[name] });
        assert.equal(found.length, 1, `${name}: the healthy charge is suggested for its receipt`);
      }
      // Set aside before the scan since decision 400 (a stored date outside the range), counted
      // as such; a row whose scan throws for another cause is counted `skipped` the same way.
      assert.equal(
        (await failures(app, 'receipts.match.transactions', 'skipped')) +
          (await failures(app, 'receipts.match.transactions', 'out_of_range')),
        2,
      );
    });

    it('entries.export that throws is tried again, then ends failed with its cause; the others finish', async () => {
      const requested = async (caller: Caller) => {
        const res = await call(
          app.baseUrl,
          'entries.export',
          { from: '2026-01-01', to: '2026-12-31' },
          { token: caller.token },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return (res.data as { job: { id: string } }).job.id;
      };
      const poisoned = await requested(first);
      // Parameters no query can bind (an object where a date belongs): it throws on every attempt.
      await app.database.db.kysely
        .updateTable('books_jobs')
        .set({ params: JSON.stringify({ from: { year: 0 }, to: '2026-12-31' }) })
        .where('id', '=', poisoned)
        .execute();
      const healthyFirst = await requested(first);
      const healthySecond = await requested(second);
      const get = async (caller: Caller, id: string) => {
        const res = await call(
          app.baseUrl,
          'entries.exports.get',
          { id },
          { token: caller.token, method: 'GET' },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.data as { state: string; error: { code: string; message: string } | null };
      };
      await app.runJobs(exportJob);
      assert.equal((await get(first, healthyFirst)).state, 'succeeded');
      assert.equal((await get(second, healthySecond)).state, 'succeeded');
      // Its parameters cannot be read back by entries.exports.get either: the row tells.
      const stored = () =>
        app.database.db.kysely
          .selectFrom('books_jobs')
          .select(['state', 'attempts', 'error_code', 'error_message'])
          .where('id', '=', poisoned)
          .executeTakeFirstOrThrow();
      assert.equal((await stored()).state, 'running');
      assert.match((await stored()).error_message ?? '', /^attempt 1 of 5: /);
      for (let attempt = 2; attempt <= 6; attempt++) {
        app.clock.advance(60 * 60_000);
        await app.runJobs(exportJob);
      }
      const failed = await stored();
      assert.equal(failed.state, 'failed');
      assert.equal(failed.error_code, 'attempts_exhausted');
      assert.match(failed.error_message ?? '', /^attempt 5 of 5: /);
      assert.equal(Number(failed.attempts), 5);
      assert.equal(await failures(app, 'entries.export', 'retry'), 4);
      assert.equal(await failures(app, 'entries.export', 'failed'), 1);
    });

    it('a job whose worker died on its last attempt ends failed at the next claim', async () => {
      const res = await call(
        app.baseUrl,
        'entries.export',
        { from: '2026-01-01', to: '2026-12-31' },
        { token: second.token },
      );
      const id = (res.data as { job: { id: string } }).job.id;
      await app.database.db.kysely
        .updateTable('books_jobs')
        .set({
          state: 'running',
          attempts: 5,
          locked_by: 'dead-worker',
          locked_until: '2000-01-01T00:00:00.000Z',
        })
        .where('id', '=', id)
        .execute();
      await app.runJobs(exportJob);
      const got = await call(
        app.baseUrl,
        'entries.exports.get',
        { id },
        { token: second.token, method: 'GET' },
      );
      const data = got.data as { state: string; error: { code: string; message: string } | null };
      assert.equal(data.state, 'failed');
      assert.equal(data.error?.code, 'attempts_exhausted');
      assert.match(data.error?.message ?? '', /stopped 5 times/);
    });
  });
}
