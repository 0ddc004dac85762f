import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createAccount, csv, importStatement, ok } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

/**
 * Issue 27 part 1: every amount the service accepts is kept exactly on both databases. The money
 * range is |minor| <= 9007199254740991 (docs/decisions.md 320); beyond it is refused at the edge,
 * never stored rounded (SQLite used to answer 9007199254740992 for 9007199254740993).
 */
const MAX = 9007199254740991n;
const extreme = fc.oneof(
  fc.constantFrom(MAX, -MAX, MAX - 1n, -(MAX - 1n), 1n, -1n, 2n ** 52n + 1n, -(2n ** 52n + 1n)),
  fc.bigInt({ min: -MAX, max: MAX }).filter((n) => n !== 0n),
);

interface Entry {
  id: string;
  revision: number;
  amount_minor: string;
  allocations: Array<{ amount_minor: string }>;
}

for (const dialect of DIALECTS) {
  describe(`money range (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let accountId: string;
    let categories: string[];
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      accountId = String((await createAccount(app, admin, { currency: 'EUR' })).id);
      const listed = await ok<{ items: Array<{ id: string }> }>(app, admin, 'categories.list', { limit: 5 });
      categories = listed.items.map((c) => c.id);
    });
    after(() => app.close());

    it('transactions.create and entries.update keep the extremes exactly (property)', async () => {
      await fc.assert(
        fc.asyncProperty(extreme, fc.bigInt({ min: 0n, max: MAX }), async (amount, cut) => {
          const transaction = await ok(app, admin, 'transactions.create', {
            accountId,
            bookedDate: '2026-03-01',
            amountMinor: amount.toString(),
            description: 'Extreme',
          });
          assert.equal(transaction.amount_minor, amount.toString());
          const read = await ok(app, admin, 'transactions.get', { id: transaction.id });
          assert.equal(read.amount_minor, amount.toString());
          const entry = await ok<Entry>(app, admin, 'entries.get', { id: transaction.entry_id });
          assert.equal(entry.amount_minor, amount.toString());
          // A split of the same sign that sums to the entry: both parts stored exactly.
          const first = amount < 0n ? -(cut % (-amount + 1n)) : cut % (amount + 1n);
          const second = amount - first;
          const split = await ok<Entry>(app, admin, 'entries.update', {
            id: entry.id,
            expectedRevision: entry.revision,
            allocations: [
              { categoryId: categories[0], amountMinor: first.toString() },
              { categoryId: categories[1], amountMinor: second.toString() },
            ],
          });
          const again = await ok<Entry>(app, admin, 'entries.get', { id: split.id });
          assert.deepEqual(
            again.allocations.map((a) => a.amount_minor).sort(),
            [first.toString(), second.toString()].sort(),
          );
          assert.equal(
            again.allocations.reduce((sum, a) => sum + BigInt(a.amount_minor), 0n),
            amount,
          );
        }),
        { numRuns: 6 },
      );
    });

    it('accounts keep an extreme opening balance exactly', async () => {
      for (const balance of [MAX, -MAX]) {
        const account = await createAccount(app, admin, { openingBalanceMinor: balance.toString() });
        const read = await ok(app, admin, 'accounts.get', { id: account.id });
        assert.equal(read.opening_balance_minor ?? read.openingBalanceMinor, balance.toString());
      }
    });

    it('an amount beyond the range is refused with the range, never stored rounded', async () => {
      for (const amount of ['9007199254740992', '-9007199254740993', '999999999999999999']) {
        const res = await call(
          app.baseUrl,
          'transactions.create',
          { accountId, bookedDate: '2026-03-01', amountMinor: amount, description: 'Too much' },
          { token: admin.token },
        );
        assert.equal(res.status, 400, amount);
        assert.equal(res.error.field, 'amountMinor');
        assert.match(res.error.message, /9007199254740991/);
      }
      const opening = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Big', kind: 'checking', currency: 'EUR', openingBalanceMinor: '9007199254740993' },
        { token: admin.token },
      );
      assert.equal(opening.status, 400);
    });

    it('a CSV line at the top of the range is exact and found again as a duplicate; beyond it, rejected', async () => {
      const account = String((await createAccount(app, admin, { currency: 'EUR' })).id);
      const lines = [
        'Date,Description,Amount',
        '2026-01-02,Largest,90071992547409.91',
        '2026-01-02,Smallest,-90071992547409.91',
        '2026-01-03,Near,90071992547409.90',
        '2026-01-04,Beyond,123456789012345.67',
      ];
      const first = await importStatement(app, admin, account, 'big.csv', csv(lines));
      assert.equal(first.state, 'succeeded', JSON.stringify(first));
      assert.deepEqual(first.counts, { read: 4, added: 3, duplicates: 0, rejected: 1, pending: 0 });
      assert.equal(first.rejected[0]?.line, 5);
      assert.match(first.rejected[0]?.reason ?? '', /beyond 90071992547409\.91/);
      const rows = await app.services.db.kysely
        .selectFrom('bank_transactions')
        .select('amount_minor')
        .where('account_id', '=', account)
        .execute();
      assert.deepEqual(rows.map((r) => BigInt(r.amount_minor as unknown as string)).sort(), [
        -MAX,
        MAX - 1n,
        MAX,
      ]);
      const again = await importStatement(app, admin, account, 'big.csv', csv(lines));
      assert.deepEqual(again.counts, { read: 4, added: 0, duplicates: 3, rejected: 1, pending: 0 });
    });
  });
}
