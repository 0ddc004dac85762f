import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ExtractionResult, extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { einvoiceFixture } from './einvoice-fixtures.ts';
import { attachmentBombPdf, billionLaughs, contentBombPdf, pixelFloodPng, xxe } from './fixtures/hostile.ts';
import { receipts } from './fixtures/receipts.ts';
import { renderReceipt } from './fixtures/render.ts';

// Hostile files fail with their code, quickly, and leave the process able to extract the next one.

async function timed(
  bytes: Buffer,
  fileName: string,
  mediaType: string,
  limits = {},
): Promise<{ result: ExtractionResult; ms: number }> {
  const started = Date.now();
  const result = await extractReceipt({ bytes, fileName, mediaType }, limits);
  return { result, ms: Date.now() - started };
}

function assertFailed(result: ExtractionResult, code: string): void {
  assert.equal(result.status, 'failed');
  assert.equal(result.status === 'failed' ? result.code : undefined, code);
}

const ubl = einvoiceFixture('ubl-invoice.xml');
const minimalPdf = () => {
  const def = receipts[0];
  assert.ok(def);
  return renderReceipt(def);
};

describe('receipts extraction: hostile files', () => {
  it('refuses a file over 10 MB without reading it', async () => {
    const { result, ms } = await timed(Buffer.alloc(10 * 1024 * 1024 + 1), 'big.pdf', 'application/pdf');
    assertFailed(result, 'too_large');
    assert.ok(ms < 100);
  });

  it('refuses an XML entity bomb and an external entity (XXE) unread', async () => {
    assertFailed(
      (await timed(Buffer.from(billionLaughs), 'bomb.xml', 'application/xml')).result,
      'unsafe_xml',
    );
    assertFailed((await timed(Buffer.from(xxe), 'xxe.xml', 'text/xml')).result, 'unsafe_xml');
  });

  it('refuses a PNG whose header claims 50000x50000 pixels before decoding it', async () => {
    const { result, ms } = await timed(pixelFloodPng(50_000, 50_000), 'flood.png', 'image/png');
    assertFailed(result, 'too_large');
    assert.ok(ms < 3000);
  });

  it('refuses files whose name or media type lies about the content', async () => {
    const png = pixelFloodPng(10, 10);
    assertFailed((await timed(png, 'receipt.pdf', 'application/pdf')).result, 'type_mismatch');
    assertFailed((await timed(await minimalPdf(), 'receipt.jpg', 'application/pdf')).result, 'type_mismatch');
    assertFailed((await timed(ubl, 'invoice.xml', 'application/pdf')).result, 'type_mismatch');
    assertFailed(
      (await timed(Buffer.from('MZ\x90\x00 not a receipt'), 'receipt.pdf', '')).result,
      'type_mismatch',
    );
  });

  it('refuses polyglots: a JPEG with a PDF appended, a PDF with a ZIP appended', async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      Buffer.alloc(14),
      await minimalPdf(),
    ]);
    assertFailed((await timed(jpeg, 'photo.jpg', 'image/jpeg')).result, 'type_mismatch');
    assertFailed((await timed(jpeg, 'photo.pdf', 'application/pdf')).result, 'type_mismatch');
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04'),
      Buffer.alloc(40),
      Buffer.from('PK\x05\x06'),
      Buffer.alloc(18),
    ]);
    const pdfZip = Buffer.concat([await minimalPdf(), zip]);
    assertFailed((await timed(pdfZip, 'receipt.pdf', 'application/pdf')).result, 'type_mismatch');
  });

  it('refuses types receipts are not read from', async () => {
    assertFailed(
      (await timed(Buffer.from('PK\x03\x04rest'), 'archive.zip', 'application/zip')).result,
      'unsupported_type',
    );
    assertFailed(
      (await timed(Buffer.from('hello'), 'notes', 'application/octet-stream')).result,
      'unsupported_type',
    );
  });

  it('stops an embedded-invoice decompression bomb at the inflate cap', async () => {
    const { result, ms } = await timed(await attachmentBombPdf(256), 'facturx.pdf', 'application/pdf');
    assertFailed(result, 'too_large');
    assert.ok(ms < 3000);
  });

  it('refuses a content-stream decompression bomb before inflating it while a parallel extraction completes', async () => {
    const bomb = await contentBombPdf(' ', 512);
    const receipt = await minimalPdf();
    // Both pooled workers warm first, so the comparison is about extraction, not start-up.
    await Promise.all([timed(ubl, 'a.xml', 'application/xml'), timed(ubl, 'b.xml', 'application/xml')]);
    const [hostile, pdf] = await Promise.all([
      timed(bomb, 'bomb.pdf', 'application/pdf', { timeoutMs: 4000 }),
      timed(receipt, 'receipt.pdf', 'application/pdf'),
    ]);
    // The capped pre-inflate (src/files/pdf-inflate-guard.ts) refuses it before any reader runs;
    // it used to run until the 4 s timeout killed the worker.
    assertFailed(hostile.result, 'too_large');
    assert.ok(hostile.ms < 6000, `bomb took ${hostile.ms} ms`);
    assert.equal(pdf.result.status, 'ready');
  });

  it('stops a worker that exceeds its heap and goes on with the next file', async () => {
    const notes = '<cbc:Note>x</cbc:Note>'.repeat(400_000);
    const xml = Buffer.from(
      `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${notes}</Invoice>`,
    );
    assertFailed((await timed(xml, 'huge.xml', 'application/xml', { maxHeapMb: 24 })).result, 'memory_limit');
    assert.equal((await timed(ubl, 'invoice.xml', 'application/xml')).result.status, 'ready');
  });

  it('reports corrupt files that claim a readable type', async () => {
    assertFailed(
      (await timed(Buffer.from('<Invoice><ID>1</Invoice>'), 'x.xml', 'application/xml')).result,
      'corrupt_file',
    );
    const truncated = (await minimalPdf()).subarray(0, 400);
    const result = (
      await timed(Buffer.concat([truncated, Buffer.from('\n%%EOF\n')]), 'x.pdf', 'application/pdf')
    ).result;
    assert.ok(result.status === 'failed' || result.status === 'needs_review');
  });
});

describe('receipts extraction: polyglot images', () => {
  it('refuses a PNG with a ZIP archive appended', async () => {
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04'),
      Buffer.alloc(40),
      Buffer.from('PK\x05\x06'),
      Buffer.alloc(18),
    ]);
    const png = Buffer.concat([pixelFloodPng(10, 10), zip]);
    assertFailed((await timed(png, 'receipt.png', 'image/png')).result, 'type_mismatch');
  });
});
