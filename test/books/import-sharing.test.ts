import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { generatedCsv } from './fixtures.ts';
import { createAccount, type ImportRecord, ok } from './support.ts';

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
  });
}
