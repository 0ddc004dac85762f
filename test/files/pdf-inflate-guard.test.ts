import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { AppError } from '../../src/contract/errors.ts';
import { renderSignedPdf } from '../../src/contractors/agreement-pdf.ts';
import { assertPdfInflatesWithin, PdfInflateLimitError } from '../../src/files/pdf-inflate-guard.ts';
import { findInvoiceAttachments } from '../../src/receipts/extraction/pdf-attachments.ts';
import { ExtractionFailure } from '../../src/receipts/extraction/types.ts';
import { pdfObjectStreamBomb } from '../support/hostile-files.ts';

const facts = {
  agreementId: 'agr_1',
  title: 'Agreement',
  fileName: 'template.pdf',
  mediaType: 'application/pdf',
  documentSha256: '0'.repeat(64),
  signedName: 'Ada',
  signedAt: '2026-11-28T00:00:00Z',
  clientAddress: '127.0.0.1',
  consentText: 'I agree.',
};

describe('PDF decompression is capped before a PDF library reads the file', () => {
  // 40 MiB of inflated object stream in a file of about 40 KB: over the 16 MiB per-stream cap.
  const bomb = pdfObjectStreamBomb(40 * 1024 * 1024);

  it('the guard refuses the bomb and lets ordinary PDFs through', async () => {
    assert.ok(bomb.length < 200 * 1024, `bomb is ${bomb.length} bytes`);
    assert.throws(() => assertPdfInflatesWithin(bomb), PdfInflateLimitError);
    const ordinary = Buffer.from(await (await PDFDocument.create()).save());
    assertPdfInflatesWithin(ordinary);
    assertPdfInflatesWithin(pdfObjectStreamBomb(1024 * 1024));
    assert.throws(
      () => assertPdfInflatesWithin(pdfObjectStreamBomb(1024 * 1024), { perStream: 512 * 1024, total: 1e9 }),
      /inflates past 524288 bytes/,
    );
  });

  it('an agreement template that is a bomb fails signing with invalid_file, unread', async () => {
    await assert.rejects(renderSignedPdf(bomb, facts), (e: unknown) => {
      assert.ok(e instanceof AppError, String(e));
      assert.equal(e.code, 'invalid_file');
      assert.deepEqual(e.details, { reason: 'decompression_limit' });
      return true;
    });
  });

  it('receipt extraction of the bomb fails with too_large before pdf-lib inflates it', async () => {
    await assert.rejects(findInvoiceAttachments(bomb, 20 * 1024 * 1024), (e: unknown) => {
      assert.ok(e instanceof ExtractionFailure, String(e));
      assert.equal(e.code, 'too_large');
      return true;
    });
  });
});
