import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertEntriesBalance,
  createAccount,
  csv,
  importStatement,
  ok,
  transactionsOf,
} from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

const HEADER = 'Date,Description,Amount,Reference';
const line = (date: string, description: string, amount: string, reference = '') =>
  `${date},${description},${amount},${reference}`;

const JANUARY = [
  line('2026-01-02', 'Coffee Corner', '-4.50'),
  line('2026-01-02', 'Coffee Corner', '-4.50'),
  line('2026-01-03', 'ACME Payroll', '2500.00', 'REF-1'),
  line('2026-01-05', 'Office Depot', '-120.99'),
  line('2026-01-07', 'Rent', '-1500.00', 'REF-2'),
];
const OVERLAP = [
  line('2026-01-05', 'Office Depot', '-120.99'),
  line('2026-01-07', 'Rent', '-1500.00', 'REF-2'),
  line('2026-01-09', 'Coffee Corner', '-4.50'),
  line('2026-01-10', 'Bank fee', '-2.00', 'REF-3'),
  line('2026-01-12', 'Client payment', '830.10', 'REF-4'),
];

for (const dialect of DIALECTS) {
  describe(`transactions.imports.create (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('imports a CSV, adds nothing the second time and only the new lines of an overlapping period', async () => {
      const account = String((await createAccount(app, admin)).id);
      const first = await importStatement(app, admin, account, 'january.csv', csv([HEADER, ...JANUARY]));
      assert.equal(first.state, 'succeeded', JSON.stringify(first));
      assert.deepEqual(first.counts, { read: 5, added: 5, duplicates: 0, rejected: 0, pending: 0 });
      assert.equal(first.detection?.format, 'csv');
      const rows = await transactionsOf(app, account);
      assert.equal(rows.length, 5);
      const payroll = rows.find((row) => row.bank_reference === 'REF-1');
      assert.equal(payroll?.booked_date, '2026-01-03');
      assert.equal(BigInt(payroll?.amount_minor ?? 0), 250000n);
      assert.equal(payroll?.source, 'import');
      assert.equal(payroll?.status, 'unmatched');
      // Two identical coffees on one day are two purchases, both kept.
      assert.equal(rows.filter((row) => row.description === 'Coffee Corner').length, 2);

      const again = await importStatement(app, admin, account, 'january.csv', csv([HEADER, ...JANUARY]));
      assert.deepEqual(again.counts, { read: 5, added: 0, duplicates: 5, rejected: 0, pending: 0 });

      const overlap = await importStatement(
        app,
        admin,
        account,
        'mid-january.csv',
        csv([HEADER, ...OVERLAP]),
      );
      assert.deepEqual(overlap.counts, { read: 5, added: 3, duplicates: 2, rejected: 0, pending: 0 });
      const after = await transactionsOf(app, account);
      assert.equal(after.length, 8);
      // The coffee of the 9th is new: the two of the 2nd are more than the window (1 day) away.
      assert.equal(after.filter((row) => row.description === 'Coffee Corner').length, 3);
      assert.equal(await assertEntriesBalance(app, account), 8);

      // A wider window matches a line a day or two off (the bank booked it later in another export).
      const shifted = await importStatement(
        app,
        admin,
        account,
        'shifted.csv',
        csv([HEADER, line('2026-01-14', 'Client payment', '830.10')]),
        { dedupeWindowDays: 2 },
      );
      assert.deepEqual(shifted.counts, { read: 1, added: 0, duplicates: 1, rejected: 0, pending: 0 });
    });

    it('a bank reference wins over amount and date; another reference is another transaction', async () => {
      const account = String((await createAccount(app, admin)).id);
      await importStatement(
        app,
        admin,
        account,
        'a.csv',
        csv([HEADER, line('2026-02-01', 'Transfer', '-10.00', 'X1')]),
      );
      const next = await importStatement(
        app,
        admin,
        account,
        'b.csv',
        csv([
          HEADER,
          line('2026-02-03', 'Transfer corrected text', '-10.00', 'X1'),
          line('2026-02-01', 'Transfer', '-10.00', 'X2'),
        ]),
      );
      assert.deepEqual(next.counts, { read: 2, added: 1, duplicates: 1, rejected: 0, pending: 0 });
    });

    it('reports bad lines by line number and imports the rest', async () => {
      const account = String((await createAccount(app, admin)).id);
      const job = await importStatement(
        app,
        admin,
        account,
        'bad-lines.csv',
        csv([
          HEADER,
          line('2026-03-01', 'Fine', '-1.00'),
          line('2026-02-30', 'Bad date', '-1.00'),
          line('2026-03-02', 'Bad amount', 'abc'),
          line('2026-03-03', 'Fine too', '2.00'),
        ]),
        // The parser detects formats from the whole column; with a bad date in it, the mapping names the format.
        {
          mapping: {
            date: 'Date',
            description: 'Description',
            amount: 'Amount',
            reference: 'Reference',
            dateFormat: 'yyyy-MM-dd',
            decimalSeparator: '.',
          },
        },
      );
      assert.equal(job.state, 'succeeded');
      assert.equal(job.counts.added, 2);
      assert.equal(job.counts.rejected, 2);
      assert.deepEqual(
        job.rejected.map((r) => r.line),
        [3, 4],
      );
      for (const rejected of job.rejected) assert.ok(rejected.reason.length > 0);
    });

    it('uses a column mapping and reports a mapping naming a missing column as a failed job', async () => {
      const account = String((await createAccount(app, admin)).id);
      const file = csv(['Booked;Text;Value', '05.04.2026;Grocer;-12,30']);
      const mapped = await importStatement(app, admin, account, 'mapped.csv', file, {
        mapping: {
          date: 'Booked',
          description: 'Text',
          amount: 'Value',
          dateFormat: 'dd.MM.yyyy',
          decimalSeparator: ',',
        },
      });
      assert.equal(mapped.state, 'succeeded', JSON.stringify(mapped));
      assert.equal(mapped.counts.added, 1);
      const [row] = await transactionsOf(app, account);
      assert.equal(row?.booked_date, '2026-04-05');
      assert.equal(BigInt(row?.amount_minor ?? 0), -1230n);

      const missing = await importStatement(app, admin, account, 'mapped.csv', file, {
        mapping: { date: 'Booked', description: 'Nope', amount: 'Value' },
      });
      assert.equal(missing.state, 'failed');
      assert.ok(missing.error?.code);
      assert.match(missing.error?.message ?? '', /Nope/);
    });

    it('attributes lines to cards: the file’s cardId, shown in the holder’s attention list', async () => {
      const account = String((await createAccount(app, admin, { kind: 'credit_card' })).id);
      const card = await ok(app, admin, 'cards.create', {
        accountId: account,
        holderMemberId: admin.memberId,
        lastFour: '4242',
      });
      const job = await importStatement(
        app,
        admin,
        account,
        'card.csv',
        csv([HEADER, line('2026-05-01', 'Taxi', '-23.00')]),
        {
          cardId: card.id,
        },
      );
      assert.equal(job.counts.added, 1);
      const [row] = await transactionsOf(app, account);
      assert.equal(row?.card_id, card.id);
      const attention = await ok<{ items: Array<{ lastFour: string }>; total: number; cards: string[] }>(
        app,
        admin,
        'attention.mine',
        {},
      );
      assert.equal(attention.total, 1);
      assert.deepEqual(attention.cards, ['4242']);
    });

    it('refuses an archived account, a card of another account, and bad base64 (400, nothing queued)', async () => {
      const account = await createAccount(app, admin);
      const other = String((await createAccount(app, admin)).id);
      const card = await ok(app, admin, 'cards.create', {
        accountId: other,
        holderMemberId: admin.memberId,
        lastFour: '1111',
      });
      const base = {
        accountId: account.id,
        fileName: 'x.csv',
        mediaType: 'text/csv',
        contentBase64: csv([HEADER]).toString('base64'),
      };
      const wrongCard = await call(
        app.baseUrl,
        'transactions.imports.create',
        { ...base, cardId: card.id },
        { token: admin.token },
      );
      assert.equal(wrongCard.status, 404);
      assert.equal(wrongCard.error.field, 'cardId');
      const badBase64 = await call(
        app.baseUrl,
        'transactions.imports.create',
        { ...base, contentBase64: 'a b' },
        { token: admin.token },
      );
      assert.equal(badBase64.status, 400);
      assert.equal(badBase64.error.code, 'invalid_file');
      await ok(app, admin, 'accounts.archive', { id: account.id, expectedRevision: account.revision });
      const archived = await call(app.baseUrl, 'transactions.imports.create', base, { token: admin.token });
      assert.equal(archived.status, 409);
      assert.equal(archived.error.code, 'invalid_state');
      const jobs = await app.services.db.kysely
        .selectFrom('books_jobs')
        .select('id')
        .where('account_id', '=', String(account.id))
        .execute();
      assert.equal(jobs.length, 0);
    });
  });
}
