import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('draws a Markdown draft with its structure: headings bigger and bold, bullets, no markup left', async () => {
    const draft = [
      '# Services agreement',
      '',
      'Between **Acme & Sons** and _Ada_; see [the terms](https://example.com/terms).',
      '',
      '## Duties',
      '',
      '- Bookkeeping *monthly*',
      '- Payroll',
      '',
      '1. First',
      '2. Second',
    ].join('\n');
    const pdf = await renderSignedPdf(Buffer.from(draft), facts);
    const file = join(mkdtempSync(join(tmpdir(), 'agreement-')), 'signed.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
    assert.match(text, /^\s*Services agreement$/m);
    assert.match(text, /Between Acme & Sons and Ada; see the terms \(https:\/\/example\.com\/terms\)\./);
    assert.match(text, /^\s*\u2022\s+Bookkeeping monthly$/m);
    assert.match(text, /^\s*\u2022\s+Payroll$/m);
    assert.match(text, /^\s*1\.\s+First$/m);
    assert.doesNotMatch(text.split('Signature page')[0] ?? '', /[#*_[\]]/);
    // Word heights from the text layer: a heading's words stand taller than the body's.
    const boxes = execFileSync('pdftotext', ['-bbox', file, '-']).toString('utf8');
    const height = (word: string) => {
      const m = new RegExp(`yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${word}<`).exec(boxes);
      assert.ok(m, word);
      return Number(m[2]) - Number(m[1]);
    };
    assert.ok(height('Services') > height('Between') * 1.3, 'h1 bigger than the body');
    assert.ok(height('Duties') > height('Between') * 1.1, 'h2 bigger than the body');
    const fonts = execFileSync('pdffonts', [file]).toString('utf8');
    assert.match(fonts, /Helvetica-Bold/);
  });

  it('a hostile 200,000-character Markdown list renders, one bullet per item', {
    timeout: 120_000,
  }, async () => {
    const pdf = await renderSignedPdf(Buffer.from('- a\n'.repeat(50_000)), facts);
    const doc = await PDFDocument.load(pdf);
    assert.ok(doc.getPageCount() > 500, `pages: ${doc.getPageCount()}`);
  });
});
