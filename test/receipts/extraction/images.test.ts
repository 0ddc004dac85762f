import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import PDFDocument from 'pdfkit';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { hasCommand } from '../../../src/receipts/extraction/tools.ts';
import { checkFields } from './fixtures/check.ts';
import { receipts } from './fixtures/receipts.ts';
import { renderReceipt } from './fixtures/render.ts';

// Images through OCR: receipts rendered to PNG and JPEG with pdftoppm here, two committed WebP
// files (fixtures/make-webp.ts), and a scanned PDF with no text layer. OCR loses accents with
// the English model, so these check the fields OCR must get right for bookkeeping.

const dir = mkdtempSync(path.join(tmpdir(), 'receipt-images-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ocr = hasCommand('tesseract');

function def(id: string) {
  const found = receipts.find((r) => r.id === id);
  assert.ok(found, id);
  return found;
}

async function rasterize(id: string, format: 'png' | 'jpeg'): Promise<Buffer> {
  const pdf = path.join(dir, `${id}.pdf`);
  writeFileSync(pdf, await renderReceipt(def(id)));
  execFileSync('pdftoppm', ['-r', '200', '-gray', `-${format}`, '-singlefile', pdf, path.join(dir, id)]);
  return readFileSync(path.join(dir, `${id}.${format === 'png' ? 'png' : 'jpg'}`));
}

const keyFields = ['total', 'currency', 'date', 'documentNumber', 'tax', 'net'] as const;

describe('receipts extraction: images and scans through OCR', {
  skip: !ocr && 'tesseract is not installed',
}, () => {
  const cases: [string, 'png' | 'jpeg'][] = [
    ['shop-en-corner', 'png'],
    ['saas-fr-facture', 'png'],
    ['hotel-en-us-inn', 'jpeg'],
    ['restaurant-fr-brasserie', 'jpeg'],
  ];
  for (const [id, format] of cases) {
    it(`reads ${id} as ${format}`, async () => {
      const image = await rasterize(id, format);
      const result = await extractReceipt({
        bytes: image,
        fileName: `${id}.${format}`,
        mediaType: `image/${format}`,
      });
      assert.ok(result.status !== 'failed', result.status === 'failed' ? result.reason : '');
      assert.equal(result.kind, 'image_ocr');
      const checks = checkFields(def(id), result);
      for (const field of keyFields) assert.ok(checks[field], `${field} of ${id}`);
      assert.equal(result.fields.totalMinor?.source.kind, 'ocr');
    });
  }

  for (const id of ['restaurant-en-bistro', 'fuel-fr-station']) {
    it(`reads the committed ${id}.webp`, async () => {
      const image = readFileSync(new URL(`./fixtures/${id}.webp`, import.meta.url));
      const result = await extractReceipt({ bytes: image, fileName: `${id}.webp`, mediaType: 'image/webp' });
      assert.ok(result.status !== 'failed');
      const checks = checkFields(def(id), result);
      for (const field of keyFields) assert.ok(checks[field], `${field} of ${id}`);
    });
  }

  it('falls back to OCR for a scanned PDF without a text layer', async () => {
    const png = await rasterize('saas-en-cloudly', 'png');
    const doc = new PDFDocument({ size: 'A4', margin: 0 });
    doc.image(png, 0, 0, { width: 595 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => doc.on('end', resolve));
    doc.end();
    await done;
    const result = await extractReceipt({
      bytes: Buffer.concat(chunks),
      fileName: 'scan.pdf',
      mediaType: 'application/pdf',
    });
    assert.ok(result.status !== 'failed');
    assert.equal(result.kind, 'image_ocr');
    const checks = checkFields(def('saas-en-cloudly'), result);
    for (const field of keyFields) assert.ok(checks[field], field);
  });
});

describe('receipts extraction: without OCR', () => {
  it('returns an image for review with reason ocr_unavailable', async () => {
    const image = await rasterize('shop-en-corner', 'png');
    const result = await extractReceipt(
      { bytes: image, fileName: 'r.png', mediaType: 'image/png' },
      { ocr: false },
    );
    assert.equal(result.status, 'needs_review');
    assert.equal(result.kind, 'image_ocr');
    assert.ok(result.status === 'needs_review' && result.reasons.includes('ocr_unavailable'));
  });
});
