import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importWriter } from '../../src/books/import-writes.ts';
import { insertTransactions, type NewTransaction } from '../../src/books/transactions.ts';
import { booksJobs } from '../../src/jobs/books-jobs.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createAccount, csv, importStatement, ok } from './support.ts';

/** The largest amount the service accepts (2^53 - 1 minor units, decision 390) among ordinary ones. */
const MAX = 9_007_199_254_740_991n;
const LINES: Array<Partial<NewTransaction> & { amountMinor: bigint }> = [
  { amountMinor: -100n, description: 'Coffee  O\'Brien "quoted" \\ back', bankReference: 'R1' },
  { amountMinor: MAX, description: 'Largest in', counterpartyName: 'ACME {GmbH}' },
  {
    amountMinor: -MAX,
    description: 'Largest out',
    counterpartyIban: 'DE89370400440532013000',
  },
  { amountMinor: MAX - 1n, description: 'Near the top', valueDate: '2026-01-05' },
  {
    amountMinor: -2500n,
    description: 'Card, foreign',
    originalAmountMinor: -2000n,
    originalCurrency: 'USD',
    feesMinor: -50n,
    note: null,
  },
  { amountMinor: 1n, description: 'NULL', bankReference: 'NULL', counterpartyName: '' },
];

function line(accountId: string, importId: string, index: number): NewTransaction {
  const base = LINES[index];
  assert.ok(base);
  return {
    accountId,
    cardId: null,
    bookedDate: `2026-01-0${index + 1}`,
    valueDate: null,
    currency: 'EUR',
    originalAmountMinor: null,
    originalCurrency: null,
    feesMinor: null,
    description: '',
    counterpartyName: null,
    counterpartyIban: null,
    bankReference: null,
    note: null,
    categoryHint: null,
    source: 'import',
    importId,
    lineNumber: index + 2,
    ...base,
  };
}

for (const dialect of DIALECTS) {
  describe(`import write path (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    /** What a batch wrote, without ids and times: the transaction, its entry, its allocations. */
    async function written(importId: string) {
      const db = app.services.db.kysely;
      const transactions = await db
        .selectFrom('bank_transactions')
        .selectAll()
        .where('import_id', '=', importId)
        .orderBy('line_number')
        .execute();
      const out = [];
      for (const t of transactions) {
        const entry = await db
          .selectFrom('ledger_entries')
          .selectAll()
          .where('id', '=', t.entry_id ?? '')
          .executeTakeFirstOrThrow();
        const allocations = await db
          .selectFrom('ledger_allocations')
          .selectAll()
          .where('entry_id', '=', entry.id)
          .execute();
        assert.equal(entry.source_id, t.id);
        const {
          id: _t,
          entry_id: _e,
          import_id: _i,
          account_id: _a,
          created_at: _c,
          updated_at: _u,
          ...tx
        } = t;
        const { id: _ei, source_id: _s, created_at: _ec, updated_at: _eu, ...e } = entry;
        out.push({
          tx,
          entry: e,
          allocations: allocations.map(({ id: _ai, entry_id: _ae, ...a }) => a),
        });
      }
      return out;
    }

    /** A queued import whose job row the written lines can name (it never runs). */
    async function importId(accountId: string): Promise<string> {
      const created = await ok<{ job: { id: string } }>(app, admin, 'transactions.imports.create', {
        accountId,
        fileName: 'a.csv',
        mediaType: 'text/csv',
        contentBase64: csv(['Date,Description,Amount', '2026-01-02,A,-1.00']).toString('base64'),
      });
      return created.job.id;
    }

    it('writes the same transactions, entries and allocations as insertTransactions, amounts exact', async () => {
      const accountId = String((await createAccount(app, admin)).id);
      const viaInsert = await importId(accountId);
      const viaImport = await importId(accountId);
      const now = app.clock.now().toISOString();
      const db = app.services.db.kysely;
      await insertTransactions(
        db,
        admin.organizationId,
        LINES.map((_, index) => line(accountId, viaInsert, index)),
        now,
      );
      const writer = await importWriter(db, app.services.db.dialect, admin.organizationId, now);
      await db.transaction().execute((trx) =>
        writer.write(
          trx,
          LINES.map((_, index) => line(accountId, viaImport, index)),
          now,
        ),
      );
      const expected = await written(viaInsert);
      const actual = await written(viaImport);
      assert.equal(actual.length, LINES.length);
      assert.deepEqual(actual, expected);
      // Money is exact on both databases up to the top of the range.
      assert.deepEqual(
        actual.map((row) => BigInt(String(row.tx.amount_minor))),
        LINES.map((l) => l.amountMinor),
      );
      assert.deepEqual(
        actual.map((row) => BigInt(String(row.allocations[0]?.amount_minor))),
        LINES.map((l) => l.amountMinor),
      );
      // Leave the queue empty for the next test.
      await app.runJobs(booksJobs);
    });

    it('an imported statement of 1,234 lines (several batches) adds each line once with a balanced entry', async () => {
      const accountId = String((await createAccount(app, admin)).id);
      const rows = ['Date,Description,Amount,Reference'];
      for (let i = 0; i < 1234; i += 1) {
        rows.push(
          `2026-02-${String((i % 28) + 1).padStart(2, '0')},Shop ${i % 7},${i % 3 === 0 ? '' : '-'}${i}.01,X${i}`,
        );
      }
      const job = await importStatement(app, admin, accountId, 'big.csv', csv(rows));
      assert.equal(job.state, 'succeeded');
      assert.equal(job.counts.added, 1234);
      const db = app.services.db.kysely;
      const sums = await db
        .selectFrom('bank_transactions as t')
        .innerJoin('ledger_entries as e', 'e.id', 't.entry_id')
        .innerJoin('ledger_allocations as a', 'a.entry_id', 'e.id')
        .select((eb) => [
          eb.fn.countAll().as('count'),
          eb.fn.sum<string>('t.amount_minor').as('tx'),
          eb.fn.sum<string>('e.amount_minor').as('entries'),
          eb.fn.sum<string>('a.amount_minor').as('allocations'),
        ])
        .where('t.account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(sums.count), 1234);
      assert.equal(String(sums.tx), String(sums.entries));
      assert.equal(String(sums.tx), String(sums.allocations));
      const again = await importStatement(app, admin, accountId, 'big.csv', csv(rows));
      assert.deepEqual(
        { added: again.counts.added, duplicates: again.counts.duplicates },
        { added: 0, duplicates: 1234 },
      );
    });
    it('a re-import decided by references alone counts a reference twice only where it was stored twice', async () => {
      const accountId = String((await createAccount(app, admin)).id);
      const first = await importStatement(
        app,
        admin,
        accountId,
        'a.csv',
        csv([
          'Date,Description,Amount,Reference',
          '2026-03-01,Rent,-500.00,REF-1',
          '2026-03-02,Shop,-2.00,REF-2',
        ]),
      );
      assert.equal(first.counts.added, 2);
      // Every line has a reference; REF-1 comes twice but is stored once, so the second REF-1 is new
      // (the lines of one file never absorb each other), whatever the amounts and texts say.
      const second = await importStatement(
        app,
        admin,
        accountId,
        'b.csv',
        csv([
          'Date,Description,Amount,Reference',
          '2026-03-01,Rent,-500.00,REF-1',
          '2026-03-01,Rent,-500.00,REF-1',
          '2026-03-02,Shop,-2.00,REF-2',
        ]),
      );
      assert.deepEqual(
        { added: second.counts.added, duplicates: second.counts.duplicates },
        { added: 1, duplicates: 2 },
      );
      // All three again: each is now stored as often as it appears.
      const third = await importStatement(
        app,
        admin,
        accountId,
        'c.csv',
        csv([
          'Date,Description,Amount,Reference',
          '2026-03-01,Rent,-500.00,REF-1',
          '2026-03-01,Rent,-500.00,REF-1',
          '2026-03-02,Shop,-2.00,REF-2',
        ]),
      );
      assert.deepEqual(
        { added: third.counts.added, duplicates: third.counts.duplicates },
        { added: 0, duplicates: 3 },
      );
    });
  });
}
