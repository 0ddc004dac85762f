import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimJob, LEASE_MS, purgeJobFiles } from '../../src/books/jobs-queue.ts';
import { insertTransactions } from '../../src/books/transactions.ts';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createAccount, csv, ok, transactionsOf } from './support.ts';

const FILE = csv([
  'Date,Description,Amount',
  '2026-01-02,A,-1.00',
  '2026-01-03,B,-2.00',
  '2026-01-04,C,3.00',
]);

for (const dialect of DIALECTS) {
  describe(`books job queue (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const queue = (accountId: string) =>
      ok<{ job: { id: string } }>(app, admin, 'transactions.imports.create', {
        accountId,
        fileName: 'a.csv',
        mediaType: 'text/csv',
        contentBase64: FILE.toString('base64'),
      });

    it('a lease keeps a job to one worker; a crashed worker’s lease expires and the job runs once, cleanly', async () => {
      const accountId = String((await createAccount(app, admin)).id);
      const { job } = await queue(accountId);
      const second = await queue(accountId);
      const crashed = await claimJob(
        app.services.db,
        'statement_import',
        'worker-that-dies',
        app.clock.now(),
      );
      assert.equal(crashed?.id, job.id);
      // The dead worker had written a batch before it died.
      await insertTransactions(
        app.services.db.kysely,
        admin.organizationId,
        [
          {
            accountId,
            cardId: null,
            bookedDate: '2026-01-02',
            valueDate: null,
            amountMinor: -100n,
            currency: 'EUR',
            originalAmountMinor: null,
            originalCurrency: null,
            feesMinor: null,
            description: 'A',
            counterpartyName: null,
            counterpartyIban: null,
            bankReference: null,
            note: null,
            categoryHint: null,
            source: 'import',
            importId: job.id,
            lineNumber: 2,
          },
        ],
        app.clock.now().toISOString(),
      );
      // Neither the leased job nor another import of the same account can be claimed meanwhile.
      assert.equal(await claimJob(app.services.db, 'statement_import', 'other', app.clock.now()), undefined);
      const polled = await ok(app, admin, 'transactions.imports.get', { id: job.id });
      assert.equal(polled.state, 'running');

      app.clock.advance(LEASE_MS + 1000);
      await app.runJobs(booksJobs);
      const done = await ok<{ state: string; counts: { added: number } }>(
        app,
        admin,
        'transactions.imports.get',
        { id: job.id },
      );
      assert.equal(done.state, 'succeeded');
      assert.equal(done.counts.added, 3);
      const next = await ok<{ state: string; counts: { added: number; duplicates: number } }>(
        app,
        admin,
        'transactions.imports.get',
        { id: second.job.id },
      );
      assert.equal(next.state, 'succeeded');
      assert.equal(next.counts.duplicates, 3);
      assert.equal((await transactionsOf(app, accountId)).length, 3);
      const row = await app.services.db.kysely
        .selectFrom('books_jobs')
        .select('attempts')
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.attempts, 2);
    });

    it('stored files are purged after the retention period; the job record stays', async () => {
      const accountId = String((await createAccount(app, admin)).id);
      const { job } = await queue(accountId);
      await app.runJobs(booksJobs);
      const stored = () =>
        app.services.db.kysely
          .selectFrom('books_job_files')
          .select('job_id')
          .where('job_id', '=', job.id)
          .executeTakeFirst();
      const parts = async () =>
        (
          await app.services.db.kysely
            .selectFrom('file_parts')
            .select('part')
            .where('file_id', '=', job.id)
            .execute()
        ).length;
      const state = () =>
        app.services.db.kysely
          .selectFrom('books_jobs')
          .select('state')
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow();
      assert.ok(await stored());
      assert.equal(await parts(), 1);
      assert.equal(await purgeJobFiles(app.services.db.kysely, app.clock.now().toISOString()), 0);
      app.clock.advance(8 * 86_400_000);
      await app.runJobs(booksJobs);
      assert.equal(await stored(), undefined);
      assert.equal(await parts(), 0, 'the bytes go with the file');
      assert.equal((await state()).state, 'succeeded');
    });
  });
}
