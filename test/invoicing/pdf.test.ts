import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InvoicingError } from '../../src/invoicing/errors.ts';
import { type InvoicePdfView, renderInvoicePdf } from '../../src/invoicing/pdf.ts';
import { toWinAnsi } from '../../src/invoicing/pdf-text.ts';

const view: InvoicePdfView = {
  organizationName: 'Maple Consulting Inc.',
  number: 'INV-2025-0042',
  issueDate: '2025-03-01',
  dueDate: '2025-03-31',
  party: { name: 'Café Zoë Ltd', email: 'ap@cafe.example', address: '1 King St W\nToronto ON M5H 1A1' },
  currency: 'CAD',
  lines: [
    {
      description: 'Design work',
      quantity: '1.5000',
      unitAmountMinor: 82300n,
      taxRate: '13',
      totalMinor: 139499n,
    },
    { description: 'Hosting', quantity: '1', unitAmountMinor: 0n, totalMinor: 0n },
  ],
  subtotalMinor: 123450n,
  taxMinor: 16049n,
  totalMinor: 139499n,
  amountPaidMinor: 10000n,
  balanceMinor: 129499n,
  notes: 'Thank you for your business.',
};

/** Text shown by uncompressed pdfkit output: hex strings inside TJ arrays, kerning numbers dropped. */
function rawText(pdf: Buffer): string {
  const shown: string[] = [];
  for (const match of pdf.toString('latin1').matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const hex = [...(match[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1] ?? '').join('');
    shown.push(Buffer.from(hex, 'hex').toString('latin1'));
  }
  return shown.join('\n');
}

const pdftotext = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
const havePdftotext = pdftotext.error === undefined;

function extractWithPdftotext(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
  try {
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    const result = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('renderInvoicePdf', () => {
  test('produces a complete PDF document', async () => {
    const pdf = await renderInvoicePdf(view);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(pdf.subarray(-8).toString('latin1'), /%%EOF\s*$/);
  });

  test('uncompressed output shows the number, party, formatted amounts and notes', async () => {
    const text = rawText(await renderInvoicePdf(view, { compress: false }));
    for (const expected of [
      'INV-2025-0042',
      'Maple Consulting Inc.',
      'Café Zoë Ltd',
      'Toronto ON M5H 1A1',
      'CAD 1,394.99',
      'CAD 823.00',
      'CAD 1,234.50',
      'CAD 160.49',
      'CAD 100.00',
      'CAD 1,294.99',
      '13%',
      '1.5',
      '2025-03-31',
      'Thank you for your business.',
      'page 1 of 1',
    ]) {
      assert.ok(text.includes(expected), `missing ${expected} in:\n${text}`);
    }
  });

  test('currency exponents drive the amounts shown', async () => {
    const yen = await renderInvoicePdf(
      { ...view, currency: 'JPY', balanceMinor: 1234567n },
      { compress: false },
    );
    assert.ok(rawText(yen).includes('JPY 1,234,567'));
    const dinar = await renderInvoicePdf(
      { ...view, currency: 'KWD', balanceMinor: 1235n },
      { compress: false },
    );
    assert.ok(rawText(dinar).includes('KWD 1.235'));
  });

  test('long invoices continue on further pages with the table header repeated', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => ({
      description: `Item ${i + 1}`,
      quantity: '1',
      unitAmountMinor: 100n,
      totalMinor: 100n,
    }));
    const text = rawText(await renderInvoicePdf({ ...view, lines }, { compress: false }));
    assert.ok(text.includes('Item 80'));
    const pages = Number(/page 1 of (\d+)/.exec(text)?.[1]);
    assert.ok(pages >= 2, `expected several pages, got ${pages}`);
    // Every page holding table rows repeats the header; the totals block may sit alone on the last.
    const headers = text.split('\n').filter((line) => line === 'Description').length;
    assert.ok(headers >= 2 && headers <= pages, `${headers} table headers on ${pages} pages`);
  });

  test('refuses an unsupported currency or a bad date before drawing', async () => {
    await assert.rejects(
      renderInvoicePdf({ ...view, currency: 'cad' }),
      (e: unknown) => e instanceof InvoicingError && e.code === 'unsupported_currency',
    );
    await assert.rejects(
      renderInvoicePdf({ ...view, dueDate: '2025-02-30' }),
      (e: unknown) => e instanceof InvoicingError && e.field === 'dueDate',
    );
  });

  test('characters the built-in font cannot show become "?" instead of garbage', () => {
    assert.equal(toWinAnsi('Zoë’s “café” €5 – 東京 🙂'), 'Zoë’s “café” €5 – ?? ?');
    assert.equal(toWinAnsi('e\u0301'), 'é');
    assert.equal(toWinAnsi('a\r\nb\tc\u0000'), 'a b c?');
    assert.equal(toWinAnsi('a\r\nb', true), 'a\nb');
  });

  test('pdftotext extracts the invoice text from the compressed document', {
    skip: havePdftotext
      ? false
      : 'pdftotext not found: install poppler-utils (apt-get install -y poppler-utils)',
  }, async () => {
    const text = extractWithPdftotext(await renderInvoicePdf(view));
    for (const expected of ['INV-2025-0042', 'Café Zoë Ltd', 'CAD 1,394.99', 'Balance due', 'CAD 1,294.99']) {
      assert.ok(text.includes(expected), `missing ${expected} in:\n${text}`);
    }
  });
});
