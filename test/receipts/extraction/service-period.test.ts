import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finish } from '../../../src/receipts/extraction/finish.ts';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { readText } from '../../../src/receipts/extraction/text/heuristics.ts';
import { textPdf, ublReceipt } from '../../support/receipts.ts';
import { einvoiceFixture } from './einvoice-fixtures.ts';

// Issue 26: a subscription invoice's service period is read as a field (UBL cac:InvoicePeriod,
// CII ram:BillingSpecifiedPeriod, and the text of PDFs and photos in six languages); its dates are
// never taken for the document's date, and a document that prints no issue date is dated by the
// period's start (decision 430).

const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };

describe('receipts extraction: service period from e-invoices', () => {
  it('reads UBL cac:InvoicePeriod and keeps the issue date', async () => {
    const bytes = ublReceipt({
      id: 'SUB-2026-10',
      merchant: 'Cloudy Hosting B.V.',
      date: '2026-10-31',
      amountMinor: 1900n,
      servicePeriod: OCTOBER,
    });
    const result = await extractReceipt({ bytes, fileName: 'sub.xml', mediaType: 'application/xml' });
    assert.notEqual(result.status, 'failed');
    if (result.status === 'failed') return;
    assert.deepEqual(result.fields.servicePeriod?.value, OCTOBER);
    assert.equal(result.fields.servicePeriod?.confidence, 1);
    const source = result.fields.servicePeriod?.source;
    assert.match(source?.kind === 'xml' ? source.path : '', /InvoicePeriod$/);
    assert.equal(result.fields.date?.value, '2026-10-31');
  });

  it('reads CII ram:BillingSpecifiedPeriod (format 102)', async () => {
    const xml = einvoiceFixture('cii-invoice.xml')
      .toString('utf8')
      .replace(
        '<ram:SpecifiedTradePaymentTerms>',
        `<ram:BillingSpecifiedPeriod>
        <ram:StartDateTime><udt:DateTimeString format="102">20240301</udt:DateTimeString></ram:StartDateTime>
        <ram:EndDateTime><udt:DateTimeString format="102">20240331</udt:DateTimeString></ram:EndDateTime>
      </ram:BillingSpecifiedPeriod>
      <ram:SpecifiedTradePaymentTerms>`,
      );
    const result = await extractReceipt({
      bytes: Buffer.from(xml),
      fileName: 'cii.xml',
      mediaType: 'application/xml',
    });
    assert.notEqual(result.status, 'failed');
    if (result.status === 'failed') return;
    assert.deepEqual(result.fields.servicePeriod?.value, { start: '2024-03-01', end: '2024-03-31' });
    assert.equal(result.fields.date?.value, '2024-03-14');
  });

  it('reads no period from an e-invoice without one, and none from reversed ends', async () => {
    const plain = await extractReceipt({
      bytes: ublReceipt({ id: 'P-1', merchant: 'Shop', date: '2026-10-31', amountMinor: 1900n }),
      fileName: 'p.xml',
      mediaType: 'application/xml',
    });
    assert.equal(plain.status === 'failed' ? 'failed' : plain.fields.servicePeriod, undefined);
    const reversed = await extractReceipt({
      bytes: ublReceipt({
        id: 'P-2',
        merchant: 'Shop',
        date: '2026-10-31',
        amountMinor: 1900n,
        servicePeriod: { start: '2026-10-31', end: '2026-10-01' },
      }),
      fileName: 'r.xml',
      mediaType: 'application/xml',
    });
    assert.equal(reversed.status === 'failed' ? 'failed' : reversed.fields.servicePeriod, undefined);
  });
});

describe('receipts extraction: service period from PDF text in six languages', () => {
  const cases: Array<[string, string[], string | null]> = [
    [
      'en',
      ['Acme Cloud Inc.', 'Invoice INV-1001', 'Billing period Oct 1 - Oct 31, 2026', 'Total $19.00'],
      null,
    ],
    [
      'en, issue date at the end',
      [
        'Acme Cloud Inc.',
        'Invoice INV-1002',
        'Invoice date: October 31, 2026',
        'Service period: October 1, 2026 to October 31, 2026',
        'Total $19.00',
      ],
      '2026-10-31',
    ],
    [
      'de',
      [
        'Muster Hosting GmbH',
        'Rechnung Nr. 2026-10',
        'Leistungszeitraum 01.10.2026 - 31.10.2026',
        'Gesamtbetrag 19,00 EUR',
      ],
      null,
    ],
    [
      'de, start without its year',
      [
        'Muster Hosting GmbH',
        'Rechnung',
        'Abrechnungszeitraum: 01.10. - 31.10.2026',
        'Gesamtbetrag 19,00 EUR',
      ],
      null,
    ],
    ['fr', ['Exemple SARL', 'Facture', 'Période du 1er au 31 octobre 2026', 'Total TTC 19,00 EUR'], null],
    [
      'es',
      [
        'Ejemplo S.L.',
        'Factura',
        'Periodo de facturación: del 1 de octubre al 31 de octubre de 2026',
        'Total 19,00 EUR',
      ],
      null,
    ],
    ['it', ['Esempio S.r.l.', 'Fattura', 'Periodo dal 01/10/2026 al 31/10/2026', 'Totale 19,00 EUR'], null],
    [
      'nl',
      ['Voorbeeld B.V.', 'Factuur', 'Factuurperiode 1 oktober 2026 t/m 31 oktober 2026', 'Totaal 19,00 EUR'],
      null,
    ],
  ];
  for (const [lang, lines, issued] of cases) {
    it(`reads the ${lang} period${issued ? ' and keeps the printed issue date' : ' and dates the invoice by its start'}`, async () => {
      const bytes = await textPdf(lines);
      const result = await extractReceipt({ bytes, fileName: 'invoice.pdf', mediaType: 'application/pdf' });
      assert.notEqual(result.status, 'failed');
      if (result.status === 'failed') return;
      assert.equal(result.kind, 'pdf_text');
      assert.deepEqual(result.fields.servicePeriod?.value, OCTOBER);
      assert.equal(result.fields.servicePeriod?.source.kind, 'text');
      assert.equal(result.fields.date?.value, issued ?? OCTOBER.start);
      // The period's end is never read as a due date.
      assert.equal(result.fields.dueDate, undefined);
    });
  }
});

describe('receipts extraction: service period in text and OCR readings', () => {
  const ready = (text: string, kind: 'text' | 'ocr' = 'text') => finish('pdf_text', readText([text], kind));
  const fields = (text: string, kind: 'text' | 'ocr' = 'text') => {
    const r = ready(text, kind);
    assert.notEqual(r.status, 'failed');
    return r.status === 'failed' ? undefined : r.fields;
  };

  it('reads a period under its label on the next line', () => {
    const f = fields('Acme Inc.\nInvoice\nBilling period\nOct 1, 2026 - Oct 31, 2026\nTotal $19.00\n');
    assert.deepEqual(f?.servicePeriod?.value, OCTOBER);
    assert.equal(f?.servicePeriod?.confidence, 0.75);
  });

  it('reads a bare range in a line item, less surely, across a year end', () => {
    const f = fields('Stream Co\nInvoice\nPro plan   Dec 15 – Jan 14, 2027   $19.00\nTotal $19.00\n');
    assert.deepEqual(f?.servicePeriod?.value, { start: '2026-12-15', end: '2027-01-14' });
    assert.equal(f?.servicePeriod?.confidence, 0.7);
    assert.equal(f?.date?.value, '2026-12-15');
  });

  it('scales an OCR reading down like every OCR value', () => {
    const f = fields(
      'Muster GmbH\nRechnung\nZeitraum vom 1. Oktober bis 31. Oktober 2026\nGesamtbetrag 19,00 EUR\n',
      'ocr',
    );
    assert.deepEqual(f?.servicePeriod?.value, OCTOBER);
    assert.equal(f?.servicePeriod?.source.kind, 'ocr');
    assert.equal(f?.servicePeriod?.confidence, 0.81);
  });

  it('reads no period from two unrelated dates, a quantity before a date, or a stay', () => {
    const none = [
      'Cafe\nDate: 12.10.2026\nQty 1 - 31.10.2026\nTotal 5,00 EUR\n',
      'Hotel Post\nRechnung\nAnreise 01.10.2026 Abreise 05.10.2026\nRechnungsdatum 05.10.2026\nGesamt 300,00 EUR\n',
      'Shop\nInvoice date 01.10.2026\nDue date 31.10.2026\nTotal 5,00 EUR\n',
    ];
    for (const text of none) assert.equal(fields(text)?.servicePeriod, undefined, text);
  });

  it('refuses a range longer than a year and a bit', () => {
    const f = fields('Acme\nInvoice\nBilling period 01.01.2024 - 31.12.2026\nTotal 5,00 EUR\n');
    assert.equal(f?.servicePeriod, undefined);
  });
});
