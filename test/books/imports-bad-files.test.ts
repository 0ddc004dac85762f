import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { camtWideEntry, ofxUnclosedCdata } from '../support/hostile-files.ts';
import { call } from '../support/http.ts';
import { generatedCamt } from './fixtures.ts';
import { createAccount, importStatement, ok, transactionsOf } from './support.ts';

const camt = generatedCamt(4);

const BOMB = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-01-01</Dt></BookgDt><AddtlNtryInf>&lol3;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`;
const XXE = `<?xml version="1.0"?>
<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-01-01</Dt></BookgDt><AddtlNtryInf>&xxe;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`;

/** Each bad file: the job fails (or rejects every line), adds nothing, and no request answers 5xx. */
const CASES: Array<{ name: string; file: string; bytes: () => Buffer; code?: string }> = [
  {
    name: 'empty (only whitespace)',
    file: 'empty.csv',
    bytes: () => Buffer.from('  \n\n'),
    code: 'empty_file',
  },
  { name: 'truncated CAMT.053', file: 'cut.xml', bytes: () => camt.subarray(0, Math.floor(camt.length / 2)) },
  {
    name: 'CSV content named .xml',
    file: 'statement.xml',
    bytes: () => Buffer.from('Date,Description,Amount\n2026-01-01,A,-1.00\n'),
  },
  { name: 'XML content named .csv', file: 'statement.csv', bytes: () => camt },
  {
    name: 'binary content (not text in any encoding)',
    file: 'statement.csv',
    bytes: () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 0x01, 0x02]),
  },
  {
    // It used to build a tree of every element (1.2 GB at 20 MiB) and end "succeeded".
    name: 'one CAMT entry of a million empty elements',
    file: 'wide.xml',
    bytes: () => camtWideEntry(4 * 1024 * 1024),
    code: 'limit_exceeded',
  },
  {
    name: 'OFX of unclosed CDATA (quadratic before)',
    file: 'cdata.ofx',
    bytes: () => ofxUnclosedCdata(1024 * 1024),
    code: 'malformed_file',
  },
  { name: 'XML entity bomb', file: 'bomb.xml', bytes: () => Buffer.from(BOMB), code: 'unsafe_xml' },
  { name: 'external entity (XXE)', file: 'xxe.xml', bytes: () => Buffer.from(XXE), code: 'unsafe_xml' },
  {
    name: 'a 19 MB line',
    file: 'long.csv',
    bytes: () =>
      Buffer.concat([
        Buffer.from('Date,Description,Amount\n2026-01-01,'),
        Buffer.alloc(19 * 1024 * 1024, 0x61),
        Buffer.from(',-1.00\n'),
      ]),
  },
];

for (const dialect of DIALECTS) {
  describe(`transactions.imports.create with bad files (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    for (const bad of CASES) {
      it(`${bad.name}: a failed job with a clear reason, nothing added`, async () => {
        const account = String((await createAccount(app, admin)).id);
        const job = await importStatement(app, admin, account, bad.file, bad.bytes());
        assert.equal(job.state, 'failed', JSON.stringify(job).slice(0, 400));
        assert.ok(job.error && job.error.code !== 'internal_error', JSON.stringify(job.error));
        if (bad.code) assert.equal(job.error?.code, bad.code);
        assert.ok((job.error?.message.length ?? 0) > 5);
        assert.equal(job.counts.added, 0);
        assert.equal((await transactionsOf(app, account)).length, 0);
        const events = await app.services.db.kysely
          .selectFrom('events')
          .select(['type', 'data'])
          .where('subject_id', '=', job.id)
          .execute();
        assert.deepEqual(
          events.map((e) => e.type),
          ['transactions.import.failed'],
        );
      });
    }

    it('numbers that are not money are rejected line by line, nothing added', async () => {
      const account = String((await createAccount(app, admin)).id);
      const job = await importStatement(
        app,
        admin,
        account,
        'numbers.csv',
        Buffer.from(
          'Date,Description,Amount\n2026-01-01,A,1e5\n2026-01-02,B,NaN\n2026-01-03,C,0x10\n2026-01-04,D,12.345.678,9\n',
        ),
        {
          mapping: {
            date: 'Date',
            description: 'Description',
            amount: 'Amount',
            dateFormat: 'yyyy-MM-dd',
            decimalSeparator: '.',
          },
        },
      );
      assert.equal(job.counts.added, 0, JSON.stringify(job));
      if (job.state === 'succeeded') assert.equal(job.counts.rejected, 4);
      assert.equal((await transactionsOf(app, account)).length, 0);
    });

    it('a file that fails after whole batches were written adds nothing (all or nothing)', async () => {
      const account = String((await createAccount(app, admin)).id);
      const job = await importStatement(
        app,
        admin,
        account,
        'cut.xml',
        generatedCamt(1200, { truncate: true }),
      );
      assert.equal(job.state, 'failed');
      assert.equal(job.error?.code, 'malformed_file');
      assert.equal(job.counts.added, 0);
      assert.equal((await transactionsOf(app, account)).length, 0);
      const entries = await app.services.db.kysely
        .selectFrom('ledger_entries')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .execute();
      assert.equal(entries.length, 0);
      // The same file, complete, then imports every line.
      const whole = await importStatement(app, admin, account, 'whole.xml', generatedCamt(1200));
      assert.equal(whole.counts.added, 1200);
    });

    it('a body over the limit is 413 and never a 5xx', async () => {
      const account = await createAccount(app, admin);
      const res = await call(
        app.baseUrl,
        'transactions.imports.create',
        {
          accountId: account.id,
          fileName: 'big.csv',
          mediaType: 'text/csv',
          contentBase64: 'A'.repeat(29 * 1024 * 1024),
        },
        { token: admin.token },
      );
      assert.equal(res.status, 413);
      const decodedTooBig = await call(
        app.baseUrl,
        'transactions.imports.create',
        {
          accountId: account.id,
          fileName: 'big.csv',
          mediaType: 'text/csv',
          contentBase64: Buffer.alloc(20 * 1024 * 1024 + 3).toString('base64'),
        },
        { token: admin.token },
      );
      assert.equal(decodedTooBig.status, 413);
      await ok(app, admin, 'accounts.get', { id: account.id });
    });
  });
}
