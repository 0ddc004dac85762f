import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IMPORT_TIME_LIMIT_MS } from '../../src/books/import-job.ts';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { generatedCsv } from './fixtures.ts';
import { createAccount, type ImportRecord, importStatement, ok, transactionsOf } from './support.ts';

/** Lines of the shared import: enough batches that it is still running when the others ask. */
const LINES = 6_000;

/**
 * Issue 29, part 1: an import shares the service. The job runs in the serving process (as
 * `serve` runs it); while it has read part of the file, another member's read and write are
 * answered and the import is still running when they are, its progress readable as it goes.
 */
for (const dialect of DIALECTS) {
  describe(`an import shares the service (${dialect})`, () => {
    let app: TestApp;
    let owner: Caller;
    let other: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      owner = await createCaller(app);
      other = await createCaller(app);
    });
    after(() => app.close());

    it("another member's requests complete while the import is in progress; progress is stored", async () => {
      const accountId = String((await createAccount(app, owner)).id);
      const created = await ok<{ job: { id: string; state: string } }>(
        app,
        owner,
        'transactions.imports.create',
        {
          accountId,
          fileName: 'big.csv',
          mediaType: 'text/csv',
          contentBase64: generatedCsv(LINES).toString('base64'),
        },
      );
      assert.equal(created.job.state, 'queued', 'the upload answers at once with the job');
      const get = () => ok<ImportRecord>(app, owner, 'transactions.imports.get', { id: created.job.id });

      const running = app.runJobs(booksJobs);
      // The import's progress as the page polls it: read but not finished.
      let seen: ImportRecord | undefined;
      for (let i = 0; i < 2_000 && !seen; i += 1) {
        const job = await get();
        assert.notEqual(job.state, 'failed', JSON.stringify(job.error));
        assert.notEqual(job.state, 'succeeded', 'the import ended before any request was answered');
        if (job.state === 'running' && job.counts.read > 0) seen = job;
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.ok(seen, 'the import reported progress while running');
      assert.ok(seen.counts.added > 0 && seen.counts.added < LINES, JSON.stringify(seen.counts));
      assert.equal(seen.counts.duplicates, 0);
      assert.equal(seen.counts.rejected, 0);
      assert.ok(seen.counts.read >= seen.counts.added);

      // Another organization's member reads and writes meanwhile.
      const list = await call(app.baseUrl, 'contractors.list', {}, { token: other.token });
      assert.equal(list.status, 200);
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Savings', kind: 'checking', currency: 'EUR' },
        { token: other.token },
      );
      assert.equal(account.status, 200, JSON.stringify(account.body));
      const during = await get();
      assert.equal(during.state, 'running', 'the import was still running when both were answered');
      assert.ok(during.counts.added >= seen.counts.added, 'progress only grows');

      await running;
      const done = await get();
      assert.equal(done.state, 'succeeded');
      assert.deepEqual(
        { read: done.counts.read, added: done.counts.added, duplicates: done.counts.duplicates },
        { read: LINES, added: LINES, duplicates: 0 },
      );
    });

    it('an import running past its time limit fails with time_limit and adds nothing', async () => {
      const accountId = String((await createAccount(app, owner)).id);
      const created = await ok<{ job: { id: string } }>(app, owner, 'transactions.imports.create', {
        accountId,
        fileName: 'slow.csv',
        mediaType: 'text/csv',
        contentBase64: generatedCsv(LINES).toString('base64'),
      });
      const get = () => ok<ImportRecord>(app, owner, 'transactions.imports.get', { id: created.job.id });
      const running = app.runJobs(booksJobs);
      let job = await get();
      while (job.state !== 'running' || job.counts.read === 0) {
        assert.ok(job.state === 'queued' || job.state === 'running', job.state);
        await new Promise((resolve) => setTimeout(resolve, 5));
        job = await get();
      }
      app.clock.advance(IMPORT_TIME_LIMIT_MS + 1);
      await running;
      job = await get();
      assert.equal(job.state, 'failed');
      assert.equal(job.error?.code, 'time_limit');
      assert.match(job.error?.message ?? '', /10 minutes/);
      assert.equal(job.counts.added, 0);
      assert.equal((await transactionsOf(app, accountId)).length, 0);
    });

    it("transactions.imports.list: the account's imports, newest first, with state and counts", async () => {
      const accountId = String((await createAccount(app, owner)).id);
      const first = await importStatement(app, owner, accountId, 'a.csv', generatedCsv(3));
      const second = await importStatement(app, owner, accountId, 'a-again.csv', generatedCsv(4));
      const failed = await importStatement(app, owner, accountId, 'empty.csv', Buffer.from(' \n'));
      // Another account's import is not listed.
      const elsewhere = String((await createAccount(app, owner)).id);
      await importStatement(app, owner, elsewhere, 'b.csv', generatedCsv(2));

      const page = await ok<{ items: Array<Record<string, unknown>>; nextOffset: number | null }>(
        app,
        owner,
        'transactions.imports.list',
        { accountId, limit: 2 },
      );
      assert.deepEqual(
        page.items.map((i) => i.id),
        [failed.id, second.id],
      );
      assert.equal(page.nextOffset, 2);
      assert.equal(page.items[0]?.state, 'failed');
      assert.equal((page.items[0]?.error as { code: string } | undefined)?.code, 'empty_file');
      assert.deepEqual(page.items[1]?.counts, { read: 4, added: 1, duplicates: 3, rejected: 0, pending: 0 });
      assert.equal(
        'rejected' in (page.items[1] ?? {}),
        false,
        'rejected lines are in transactions.imports.get',
      );
      const rest = await ok<{ items: Array<Record<string, unknown>>; nextOffset: number | null }>(
        app,
        owner,
        'transactions.imports.list',
        { accountId, limit: 2, offset: 2 },
      );
      assert.deepEqual(
        rest.items.map((i) => [i.id, i.state, (i.counts as { added: number }).added]),
        [[first.id, 'succeeded', 3]],
      );
      assert.equal(rest.nextOffset, null);

      // Another organization sees none of them.
      const foreign = await call(
        app.baseUrl,
        'transactions.imports.list',
        { accountId },
        { token: other.token },
      );
      assert.equal(foreign.status, 404);
    });
  });
}
