import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, csv, importStatement } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

/**
 * Issue 27: a mapping is checked when the import is created (a date format from the documented
 * list, one amount column or debit and credit), and a column index beyond the file fails the file
 * with one reason instead of rejecting every line.
 */
const FILE = csv(['Date,Description,Amount', '02.01.2026,Coffee,-4.50', '03.01.2026,Rent,-1500.00']);

for (const dialect of DIALECTS) {
  describe(`transactions.imports.create mapping (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let accountId: string;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      accountId = String((await createAccount(app, admin)).id);
    });
    after(() => app.close());

    const create = (mapping: Record<string, unknown>) =>
      call(
        app.baseUrl,
        'transactions.imports.create',
        {
          accountId,
          fileName: 'statement.csv',
          mediaType: 'text/csv',
          contentBase64: FILE.toString('base64'),
          mapping,
        },
        { token: admin.token },
      );

    it('a dateFormat outside the documented list is refused at once, listing the formats', async () => {
      const res = await create({
        date: 'Date',
        description: 'Description',
        amount: 'Amount',
        dateFormat: 'qqqq',
      });
      assert.equal(res.status, 400);
      assert.equal(res.error.field, 'mapping.dateFormat');
      assert.match(res.error.message, /dd\.MM\.yyyy/);
    });

    it('amount together with debit (or credit) is refused; debit without credit too', async () => {
      const both = await create({ date: 0, description: 1, amount: 2, debit: 2 });
      assert.equal(both.status, 400);
      assert.equal(both.error.field, 'mapping.debit');
      const half = await create({ date: 0, description: 1, debit: 2 });
      assert.equal(half.status, 400);
      assert.equal(half.error.field, 'mapping.credit');
    });

    it('a column index beyond the file fails the file with the reason', async () => {
      const job = await importStatement(app, admin, accountId, 'statement.csv', FILE, {
        mapping: { date: 0, description: 1, amount: 7, dateFormat: 'dd.MM.yyyy' },
      });
      assert.equal(job.state, 'failed', JSON.stringify(job));
      assert.equal(job.error?.code, 'unknown_columns');
      assert.match(job.error?.message ?? '', /amount column 7 is beyond the file/);
      assert.equal(job.counts.rejected, 0);
    });

    it('a valid mapping still imports', async () => {
      const job = await importStatement(app, admin, accountId, 'statement.csv', FILE, {
        mapping: { date: 'Date', description: 'Description', amount: 'Amount', dateFormat: 'dd.MM.yyyy' },
      });
      assert.equal(job.state, 'succeeded', JSON.stringify(job));
      assert.equal(job.counts.added, 2);
    });
  });
}
