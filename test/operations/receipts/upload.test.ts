import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { einvoiceFixture } from '../../receipts/extraction/einvoice-fixtures.ts';
import {
  attachmentBombPdf,
  billionLaughs,
  pixelFloodPng,
  xxe,
} from '../../receipts/extraction/fixtures/hostile.ts';
import { receipts } from '../../receipts/extraction/fixtures/receipts.ts';
import { renderReceipt } from '../../receipts/extraction/fixtures/render.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { upload, uploadAndProcess } from './helpers.ts';

async function count(app: TestApp, table: 'receipts' | 'stored_files' | 'ledger_entries', org: string) {
  const row = await app.services.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', org)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const dialect of DIALECTS) {
  describe(`receipts.upload and extraction (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app, { role: 'finance' });
    });
    after(() => app?.close());

    it('reads a UBL invoice into a ready item with a balanced receipt entry', async () => {
      const item = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'invoice.xml',
        'application/xml',
      );
      assert.equal(item.state, 'ready');
      assert.equal(item.kind, 'einvoice_ubl');
      assert.equal(item.source, 'upload');
      assert.ok(item.entry_id);
      assert.ok(typeof item.total_minor === 'string');
      const entry = await call(app.baseUrl, 'entries.get', { id: item.entry_id }, { token: caller.token });
      assert.equal(entry.status, 200);
      const e = entry.data as {
        amount_minor: string;
        source_type: string;
        receipt_ids: string[];
        allocations: { amount_minor: string; tax_minor: string }[];
      };
      assert.equal(e.source_type, 'receipt');
      assert.deepEqual(e.receipt_ids, [item.id]);
      assert.equal(BigInt(e.amount_minor), -BigInt(item.total_minor as string));
      const sum = e.allocations.reduce((s, a) => s + BigInt(a.amount_minor), 0n);
      assert.equal(sum, BigInt(e.amount_minor));
      assert.ok(
        e.allocations.some((a) => a.tax_minor !== '0'),
        'tax lines became allocations with tax',
      );
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select(['type', 'data'])
        .where('organization_id', '=', caller.organizationId)
        .where('type', '=', 'receipt.processed')
        .execute();
      assert.equal(events.length, 1);
      // The upload, the "being read" mark and the read's outcome are each audited; the job's
      // own rows name it as the actor and move the revision once (1 -> 2).
      const audit = await auditRows(
        app,
        { organizationId: caller.organizationId, recordId: item.id },
        { columns: ['operation', 'actor_type', 'before_revision', 'after_revision'] },
      );
      const byJob = audit.filter((row) => row.operation === 'receipts.extract');
      assert.deepEqual(
        byJob.map((row) => [row.actor_type, row.before_revision, row.after_revision]),
        [
          ['system', 1, 1],
          ['system', 1, 2],
        ],
      );
    });

    it('reads a generated PDF receipt through its text layer', async () => {
      const def = receipts[0];
      assert.ok(def);
      const item = await uploadAndProcess(
        app,
        caller,
        await renderReceipt(def),
        `${def.id}.pdf`,
        'application/pdf',
      );
      assert.equal(item.state, 'ready');
      assert.equal(item.kind, 'pdf_text');
      assert.ok(item.merchant);
    });

    it('deduplicates identical bytes per organization (SHA-256)', async () => {
      const bytes = einvoiceFixture('cii-invoice.xml');
      const first = await upload(app, caller, bytes, 'a.xml', 'application/xml');
      const second = await upload(app, caller, bytes, 'b.xml', 'text/xml');
      assert.equal(first.status, 200);
      assert.equal((first.data as { duplicate: boolean }).duplicate, false);
      assert.equal((second.data as { duplicate: boolean }).duplicate, true);
      assert.equal(
        (second.data as { item: { id: string } }).item.id,
        (first.data as { item: { id: string } }).item.id,
      );
      // Another organization gets its own item for the same bytes.
      const other = await createCaller(app);
      const theirs = await upload(app, other, bytes, 'a.xml', 'application/xml');
      assert.equal((theirs.data as { duplicate: boolean }).duplicate, false);
    });

    it('refuses bad files with a clear 4xx and stores nothing', async () => {
      const before = await count(app, 'receipts', caller.organizationId);
      const files = await count(app, 'stored_files', caller.organizationId);
      const lying = await upload(app, caller, Buffer.from('%PDF-1.4\n%%EOF\n'), 'photo.png', 'image/png');
      assertError(lying, 400, 'invalid_file');
      assert.equal(lying.error.reason, 'type_mismatch');
      assert.match(lying.error.message, /Accepted: PDF/);
      const zip = await upload(
        app,
        caller,
        Buffer.from('PK\x03\x04rest'),
        'x.bin',
        'application/octet-stream',
      );
      assertError(zip, 400, 'invalid_file');
      assert.equal(zip.error.reason, 'unsupported_type');
      const polyglot = Buffer.concat([Buffer.from('%PDF-1.4\n%%EOF\n'), Buffer.from('PK\x05\x06zipzipzip')]);
      assertError(await upload(app, caller, polyglot, 'p.pdf', 'application/pdf'), 400, 'invalid_file');
      const tooBig = await upload(
        app,
        caller,
        Buffer.alloc(10 * 1024 * 1024 + 1, 0x25),
        'big.pdf',
        'application/pdf',
      );
      assertError(tooBig, 413, 'payload_too_large');
      assertError(
        await call(
          app.baseUrl,
          'receipts.upload',
          { fileName: 'a.pdf', mediaType: 'application/pdf', contentBase64: 'a' },
          { token: caller.token },
        ),
        400,
        'invalid_file',
      );
      assert.equal(await count(app, 'receipts', caller.organizationId), before);
      assert.equal(await count(app, 'stored_files', caller.organizationId), files);
    });

    it('fails hostile files safely with a stable code, posting nothing, and keeps working', async () => {
      await app.runJobs(); // earlier tests' uploads are read first
      const entries = await count(app, 'ledger_entries', caller.organizationId);
      const cases: [Buffer, string, string, string][] = [
        [Buffer.from(billionLaughs), 'bomb.xml', 'application/xml', 'unsafe_xml'],
        [Buffer.from(xxe), 'xxe.xml', 'application/xml', 'unsafe_xml'],
        [pixelFloodPng(50_000, 50_000), 'flood.png', 'image/png', 'too_large'],
        // A Factur-X PDF whose embedded XML inflates to 256 MB (a decompression bomb).
        [await attachmentBombPdf(256), 'facturx.pdf', 'application/pdf', 'too_large'],
      ];
      for (const [bytes, name, type, code] of cases) {
        const item = await uploadAndProcess(app, caller, bytes, name, type);
        assert.equal(item.state, 'failed', name);
        assert.equal((item.failure as { code: string }).code, code, name);
        assert.equal(item.entry_id, null);
        const job = await app.services.db.kysely
          .selectFrom('books_jobs')
          .select(['state', 'error_code'])
          .where('kind', '=', 'receipt_extraction')
          .where('organization_id', '=', caller.organizationId)
          .where('file_name', '=', name)
          .executeTakeFirstOrThrow();
        assert.deepEqual(job, { state: 'failed', error_code: code });
      }
      assert.equal(await count(app, 'ledger_entries', caller.organizationId), entries);
      // The next good file is read as usual.
      const ok = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'ok.xml',
        'application/xml',
      );
      assert.equal(ok.state, 'ready');
    });
  });
}
