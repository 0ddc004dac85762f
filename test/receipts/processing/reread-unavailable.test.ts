import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { dbJson } from '../../../src/db/values.ts';
import { forgetReaderStatus, readerStatus } from '../../../src/receipts/extraction/readers.ts';
import { rereadWhenReadersArrive } from '../../../src/receipts/processing/reread-unavailable.ts';
import { uploadAndProcess } from '../../operations/receipts/helpers.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { einvoiceFixture } from '../extraction/einvoice-fixtures.ts';

/** Runs `work` with nothing on PATH, so that every reader looks missing. */
async function withoutReaders<T>(work: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = '';
  forgetReaderStatus();
  try {
    return await work();
  } finally {
    process.env.PATH = saved;
    forgetReaderStatus();
  }
}

for (const dialect of DIALECTS) {
  describe(`receipts waiting for a missing reader (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('are read again once the reader is there, audited; other receipts needing review stay', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      // A blank photo: read, nothing found, no entry posted (as when OCR was missing).
      const blank = await sharp({ create: { width: 240, height: 320, channels: 3, background: 'white' } })
        .png()
        .toBuffer();
      const waiting = await uploadAndProcess(app, caller, blank, 'a.png', 'image/png');
      assert.equal(waiting.entry_id, null);
      const other = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('cii-invoice.xml'),
        'b.xml',
        'application/xml',
      );
      // As the extraction leaves a receipt that arrived while Tesseract was missing.
      const park = (id: string, reasons: string[]) =>
        app.services.db.kysely
          .updateTable('receipts')
          .set({ state: 'needs_review', review_reasons: dbJson(reasons) })
          .where('id', '=', id)
          .execute();
      await park(waiting.id, ['ocr_unavailable']);
      await park(other.id, ['missing_total']);

      assert.equal(await withoutReaders(() => rereadWhenReadersArrive(app.services)), 0);
      assert.equal(await rereadWhenReadersArrive(app.services), 1);
      assert.equal(await rereadWhenReadersArrive(app.services), 0);

      const row = await app.services.db.kysely
        .selectFrom('receipts')
        .select(['state', 'revision', 'job_id'])
        .where('id', '=', waiting.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.state, 'new');
      assert.notEqual(row.job_id, waiting.job_id);
      const audit = await app.services.db.kysely
        .selectFrom('audit_log')
        .select(['operation', 'actor_type'])
        .where('record_id', '=', waiting.id)
        .where('operation', '=', 'receipts.reread')
        .execute();
      assert.equal(audit.length, 1);

      await app.runJobs();
      const read = (await call(app.baseUrl, 'inbox.get', { id: waiting.id }, { token: caller.token }))
        .data as { state: string; review_reasons: string[] };
      assert.equal(read.state, 'needs_review');
      assert.ok(!read.review_reasons.includes('ocr_unavailable'), read.review_reasons.join());
      const jobs = await app.services.db.kysely
        .selectFrom('books_jobs')
        .select(['state'])
        .where('kind', '=', 'receipt_extraction')
        .where('file_name', '=', 'a.png')
        .execute();
      assert.deepEqual(
        jobs.map((j) => j.state),
        ['succeeded', 'succeeded'],
      );
      const untouched = await call(app.baseUrl, 'inbox.get', { id: other.id }, { token: caller.token });
      assert.equal((untouched.data as { state: string }).state, 'needs_review');
      assert.deepEqual((untouched.data as { review_reasons: string[] }).review_reasons, ['missing_total']);
    });

    it('/readyz names a missing reader and stays ready', async () => {
      const shown = await withoutReaders(async () => {
        const res = await fetch(`${app.baseUrl}/readyz`);
        return { status: res.status, body: (await res.json()) as { receipt_readers: { missing: string[] } } };
      });
      assert.equal(shown.status, 200);
      assert.deepEqual(shown.body.receipt_readers.missing, ['pdftotext', 'pdftoppm', 'tesseract']);
      const now = (await (await fetch(`${app.baseUrl}/readyz`)).json()) as {
        receipt_readers: { missing: string[] };
      };
      assert.deepEqual(now.receipt_readers.missing, (await readerStatus()).missing);
    });
  });
}
