import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { createAccount, csv, importStatement, transactionsOf } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

// Statements as banks outside our own fixtures send them, through the public API on each database.
const FRAMED_MT940 = [
  '\x01{1:F01NGBANKLAXXX0000000000}{2:O9401200260301NGBANKLAXXX00000000002603011200N}{4:',
  ':20:STMT1',
  ':25:0123456789',
  ':28C:1/1',
  ':60F:C260301NGN150000,00',
  ':61:2603010301D2500,50NMSCNONREF',
  ':86:POS PURCHASE LAGOS',
  ':62F:C260301NGN147499,50',
  '-}\x03',
].join('\r\n');

for (const dialect of DIALECTS) {
  describe(`transactions.imports.create: the world's statements (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('an NGN account takes a framed MT940; an MKD account is accepted; HRK is refused with why', async () => {
      const ngn = String((await createAccount(app, admin, { currency: 'NGN' })).id);
      const imported = await importStatement(
        app,
        admin,
        ngn,
        'statement.fin',
        Buffer.from(FRAMED_MT940, 'latin1'),
      );
      assert.equal(imported.state, 'succeeded', JSON.stringify(imported));
      const [row] = await transactionsOf(app, ngn);
      assert.equal(BigInt(row?.amount_minor ?? 0), -250050n);
      assert.equal(row?.booked_date, '2026-03-01');

      const mkd = await createAccount(app, admin, { currency: 'MKD' });
      assert.equal(mkd.currency, 'MKD');
      const kuna = { name: 'Kuna', kind: 'checking', currency: 'HRK' };
      const hrk = await call(app.baseUrl, 'accounts.create', kuna, { token: admin.token });
      assert.equal(hrk.status, 400);
      assert.equal(hrk.error.code, 'unsupported_currency');
      assert.match(hrk.error.message, /withdrawn.*2023.*EUR/);
    });

    it('a CP852 file is read with its letters', async () => {
      const pln = String((await createAccount(app, admin, { currency: 'PLN' })).id);
      const text = 'Date;Description;Amount\r\n2026-03-02;Płatność kartą Łódź;-12,50\r\n';
      const imported = await importStatement(app, admin, pln, 'wyciag.csv', iconv.encode(text, 'cp852'));
      assert.equal(imported.state, 'succeeded', JSON.stringify(imported));
      const [row] = await transactionsOf(app, pln);
      assert.equal(row?.description, 'Płatność kartą Łódź');
    });

    it('an import that reads none of its lines is failed with the reasons, and adds nothing', async () => {
      const account = String((await createAccount(app, admin)).id);
      // Every line readable as CSV, none importable: a USD export given to the EUR account.
      const file = csv([
        'Date,Description,Amount,Currency',
        '2026-03-01,Coffee,-3.00,USD',
        '2026-03-02,Tea,-2.00,USD',
      ]);
      const imported = await importStatement(app, admin, account, 'broken.csv', file);
      assert.equal(imported.state, 'failed', JSON.stringify(imported));
      assert.equal(imported.error?.code, 'malformed_file');
      assert.match(imported.error?.message ?? '', /none of the 2 lines.*line 2/);
      assert.equal(imported.rejected.length, 2);
      assert.equal((await transactionsOf(app, account)).length, 0);
    });
  });
}
