import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { renderSignedPdf, wrap } from '../../src/contractors/agreement-pdf.ts';
import { longWordDraft } from '../support/hostile-files.ts';

const facts = {
  agreementId: 'agr_1',
  title: 'Agreement',
  fileName: 'draft.md',
  mediaType: 'text/markdown',
  documentSha256: '0'.repeat(64),
  signedName: 'Ada',
  signedAt: '2026-11-28T00:00:00Z',
  clientAddress: '127.0.0.1',
  consentText: 'I agree.',
};

describe('agreement PDF wrapping', () => {
  it('cuts words and long words into lines that fit, losing no character', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const text = `short words then ${'AVWAYlTo'.repeat(60)} and more words after it ${'x'.repeat(10)}`;
    const lines = wrap(text, font, 10, 200);
    assert.ok(lines.length > 5);
    for (const line of lines) assert.ok(font.widthOfTextAtSize(line, 10) <= 200 + 1e-9, line);
    assert.equal(lines.join(' ').replace(/ /g, ''), text.replace(/ /g, ''));
    assert.deepEqual(wrap('', font, 10, 200), ['']);
    assert.deepEqual(wrap('a b c', font, 10, 200), ['a b c']);
  });

  // A stall guard, not a speed assertion: before the fix 4,000 characters took 26 s (cubic), so
  // 200,000 would not finish; after it the whole draft renders in about a second.
  it('a 200,000-character draft of one word renders, every character on a page', {
    timeout: 60_000,
  }, async () => {
    const pdf = await renderSignedPdf(Buffer.from(longWordDraft(200_000)), facts);
    const doc = await PDFDocument.load(pdf);
    // About 100 W per line, 50 lines per page: some 40 pages of text plus the signature page.
    assert.ok(doc.getPageCount() > 20, `pages: ${doc.getPageCount()}`);
  });
});
