import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { booksJobs } from '../../../src/jobs/books-jobs.ts';
import { createAccount, type Json, ok } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

interface Entry {
  id: string;
  date: string;
  amount_minor: string;
  revision: number;
  review_status: string;
  allocations: Array<{
    category_id: string;
    category_code: string;
    amount_minor: string;
    tax_rate: string;
    tax_minor: string;
  }>;
  transaction_ids: string[];
}

for (const dialect of DIALECTS) {
  describe(`entries (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let accountId: string;
    const entryOf = async (transaction: Json) =>
      ok<Entry>(app, admin, 'entries.get', { id: transaction.entry_id });
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      accountId = String((await createAccount(app, admin, { currency: 'CAD' })).id);
    });
    after(() => app.close());

    const record = (date: string, amount: string, description: string) =>
      ok(app, admin, 'transactions.create', {
        accountId,
        bookedDate: date,
        amountMinor: amount,
        description,
      });

    it('every transaction posts one balanced, unreviewed entry in the uncategorized categories', async () => {
      const out = await record('2026-02-10', '-11300', 'Staples');
      const income = await record('2026-02-11', '50000', 'Client');
      const outEntry = await entryOf(out);
      assert.equal(outEntry.amount_minor, '-11300');
      assert.equal(outEntry.review_status, 'unreviewed');
      assert.deepEqual(outEntry.transaction_ids, [out.id]);
      assert.deepEqual(
        outEntry.allocations.map((a) => [a.category_code, a.amount_minor]),
        [['9999', '-11300']],
      );
      assert.equal((await entryOf(income)).allocations[0]?.category_code, '4999');
    });

    it('entries.list: from and to are inclusive, then status and search filter', async () => {
      for (const date of ['2026-04-01', '2026-04-15', '2026-04-30', '2026-05-01'])
        await record(date, '-100', `April ${date}`);
      await record('2026-03-31', '-100', 'March');
      const page = await ok<{ items: Entry[]; nextOffset: number | null }>(app, admin, 'entries.list', {
        from: '2026-04-01',
        to: '2026-04-30',
      });
      assert.deepEqual(
        page.items.map((e) => e.date),
        ['2026-04-30', '2026-04-15', '2026-04-01'],
      );
      const oneDay = await ok<{ items: Entry[] }>(app, admin, 'entries.list', {
        from: '2026-04-15',
        to: '2026-04-15',
      });
      assert.equal(oneDay.items.length, 1);
      const searched = await ok<{ items: Entry[] }>(app, admin, 'entries.list', { search: 'march' });
      assert.equal(searched.items.length, 1);
      const paged = await ok<{ items: Entry[]; nextOffset: number | null }>(app, admin, 'entries.list', {
        from: '2026-04-01',
        to: '2026-05-01',
        limit: 2,
      });
      assert.equal(paged.nextOffset, 2);
      const rest = await ok<{ items: Entry[]; nextOffset: number | null }>(app, admin, 'entries.list', {
        from: '2026-04-01',
        to: '2026-05-01',
        limit: 2,
        offset: 2,
      });
      assert.equal(rest.nextOffset, null);
      assert.equal(rest.items.length, 2);
      const byGet = await call(
        app.baseUrl,
        'entries.list',
        { from: '2026-04-01', to: '2026-04-30', status: 'unreviewed' },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(byGet.status, 200);
    });

    it('entries.update splits with tax, refuses unbalanced allocations, marks reviewed with events', async () => {
      const transaction = await record('2026-06-01', '-11300', 'Office Depot');
      const entry = await entryOf(transaction);
      const categories = await ok<{ items: Array<{ id: string; code: string }> }>(
        app,
        admin,
        'categories.list',
        { limit: 100 },
      );
      const office = categories.items.find((c) => c.code === '6300')?.id;
      const software = categories.items.find((c) => c.code === '6400')?.id;
      const unbalanced = await call(
        app.baseUrl,
        'entries.update',
        { id: entry.id, expectedRevision: 1, allocations: [{ categoryId: office, amountMinor: '-10000' }] },
        { token: admin.token },
      );
      assert.equal(unbalanced.status, 400);
      assert.equal(unbalanced.error.code, 'allocations_unbalanced');
      assert.equal((unbalanced.body as { error: { sum_minor?: string } }).error.sum_minor, '-10000');
      const split = await ok<Entry>(app, admin, 'entries.update', {
        id: entry.id,
        expectedRevision: 1,
        allocations: [
          { categoryId: office, amountMinor: '-5650', taxRate: '13' },
          { categoryId: software, amountMinor: '-5650', taxRate: '13', taxMinor: '-650' },
        ],
        reviewStatus: 'reviewed',
      });
      assert.equal(split.revision, 2);
      assert.equal(split.review_status, 'reviewed');
      assert.equal(split.amount_minor, '-11300');
      assert.deepEqual(
        split.allocations.map((a) => [a.category_code, a.amount_minor, a.tax_rate, a.tax_minor]),
        [
          ['6300', '-5650', '13', '-650'],
          ['6400', '-5650', '13', '-650'],
        ],
      );
      const stale = await call(
        app.baseUrl,
        'entries.update',
        { id: entry.id, expectedRevision: 1, reviewStatus: 'unreviewed' },
        { token: admin.token },
      );
      assert.equal(stale.status, 409);
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select('type')
        .where('subject_id', '=', entry.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        events.map((e) => e.type),
        ['entry.updated', 'entry.reviewed'],
      );
      // The bank amount of the transaction never changed.
      const after = await ok(app, admin, 'transactions.get', { id: transaction.id });
      assert.equal(after.amount_minor, '-11300');
    });

    it('any split accepted through the API sums to the entry amount (property)', async () => {
      const categories = await ok<{ items: Array<{ id: string }> }>(app, admin, 'categories.list', {
        limit: 5,
      });
      const ids = categories.items.map((c) => c.id);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: -5_000_000, max: 5_000_000 }),
          fc.array(fc.integer({ min: -3_000_000, max: 3_000_000 }), { minLength: 1, maxLength: 4 }),
          async (amount, parts) => {
            const transaction = await record('2026-07-01', String(amount), 'Property');
            const entry = await entryOf(transaction);
            const res = await call(
              app.baseUrl,
              'entries.update',
              {
                id: entry.id,
                expectedRevision: entry.revision,
                allocations: parts.map((part, index) => ({
                  categoryId: ids[index % ids.length],
                  amountMinor: String(part),
                })),
              },
              { token: admin.token },
            );
            const sum = parts.reduce((a, b) => a + b, 0);
            assert.equal(res.status, sum === amount ? 200 : 400);
            const stored = await entryOf(transaction);
            assert.equal(
              stored.allocations.reduce((total, a) => total + BigInt(a.amount_minor), 0n),
              BigInt(amount),
            );
          },
        ),
        { numRuns: 15 },
      );
    });

    it('entries.export writes a CSV of the date range, downloadable once the job succeeded', async () => {
      const created = await ok<{ job: { id: string; state: string } }>(app, admin, 'entries.export', {
        from: '2026-04-01',
        to: '2026-04-30',
      });
      const early = await call(
        app.baseUrl,
        'entries.exports.download',
        { id: created.job.id },
        { token: admin.token },
      );
      assert.equal(early.status, 404);
      await app.runJobs(booksJobs);
      const job = await ok(app, admin, 'entries.exports.get', { id: created.job.id });
      assert.equal(job.state, 'succeeded');
      assert.equal(job.entries, 3);
      assert.equal(job.downloadable, true);
      const file = await ok<{ content_base64: string; media_type: string }>(
        app,
        admin,
        'entries.exports.download',
        { id: created.job.id },
      );
      const lines = Buffer.from(file.content_base64, 'base64').toString('utf8').trim().split('\r\n');
      assert.equal(lines.length, 4);
      assert.match(lines[0] ?? '', /^entry_id,date,description/);
      assert.match(
        lines[1] ?? '',
        /,2026-04-01,April 2026,,CAD,-1\.00,9999,Uncategorized expense,-1\.00,0,0\.00,unreviewed$/,
      );
      const raw = await fetch(
        `${app.baseUrl}/api/v1/accounting/entries.exports.download?id=${created.job.id}`,
        {
          headers: { authorization: `Bearer ${admin.token}`, accept: 'text/csv' },
        },
      );
      assert.equal(raw.status, 200);
      assert.match(raw.headers.get('content-type') ?? '', /text\/csv/);
      assert.equal((await raw.text()).trim().split('\r\n').length, 4);
    });
  });
}
