import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finish } from '../../../src/receipts/extraction/finish.ts';
import { readText } from '../../../src/receipts/extraction/text/heuristics.ts';
import { amountsIn, datesIn } from '../../../src/receipts/extraction/text/values.ts';

// The text heuristics on receipts written the way real ones are (the classes of issue 25), one
// language or trap per case. The texts are our own; the corpus receipts are only measured
// (bench/receipt-extraction.ts).

const read = (text: string, kind: 'text' | 'ocr' = 'text') => readText([text], kind);
const ready = (text: string, kind: 'text' | 'ocr' = 'text') => finish('pdf_text', readText([text], kind));

describe('receipt text: total labels in seven languages', () => {
  const cases: [string, string, bigint][] = [
    ['nl', 'Bakkerij Jansen B.V.\nDatum: 03-02-2024\nBrood   2,50\nTotaal   €  12,40\n', 1240n],
    ['nl invoice', 'Jansen B.V.\nFactuurdatum: 3 februari 2024\nFactuur totaal EUR   49,99\n', 4999n],
    ['de', 'Müller GmbH\nRechnungsdatum: 03.02.2024\nRechnungsbetrag            119,00 EUR\n', 11900n],
    ['pt', 'Padaria Lisboa Lda\nData: 03/02/2024\nVALOR       7,35 €\n', 735n],
    ['fr', 'Café du Port SARL\nLe 03/02/2024\nPayé          9,50 €\n', 950n],
    ['es', 'Bar Sol S.L.\nFecha: 03/02/2024\nTOTAL A PAGAR     19,40 €\n', 1940n],
    ['it', 'Trattoria Roma S.r.l.\nData: 03/02/2024\nTotale complessivo   € 33,00\n', 3300n],
  ];
  for (const [lang, text, total] of cases) {
    it(`reads the total under the ${lang} label`, () => {
      assert.equal(read(text).totalMinor?.value, total);
    });
  }

  it('never takes a tax total for the total ("TOTAL IVA")', () => {
    const f = read(
      'Bar Sol S.L.\nFecha: 03/02/2024\nBASE IMPONIBLE   16,03\nTOTAL IVA   3,37\nA PAGAR   19,40 €\n',
    );
    assert.equal(f.totalMinor?.value, 1940n);
  });

  it('does not take "Balance due 0.00" on a paid receipt as the total', () => {
    const f = read('Corner Store Inc.\nDate: 05/30/2024\nAmount Paid   $42.10\nBalance Due   $0.00\n');
    assert.equal(f.totalMinor?.value, 4210n);
  });

  it('keeps cash back apart: SUMME, not Gesamt with the cash back in it', () => {
    const text = [
      'SUMME                    EUR    56,27',
      'Geg. EC-Cash             EUR   156,27',
      'AUSZAHLUNG               EUR   100,00',
      'Datum:                           17.01.2020',
      'Betrag EUR                          56,27',
      'Cashback EUR                       100,00',
      'Gesamt EUR                         156,27',
    ].join('\n');
    assert.equal(read(text).totalMinor?.value, 5627n);
  });

  it('chooses the total that net plus tax confirm, with a high confidence', () => {
    const f = read(
      'Shop Ltd\nDate: 01/02/2024\nSubtotal   54.50\nVAT 20%   54.50   10.90\nTotal   65.40 GBP\nTotal items   3\n',
    );
    const alone = read('Shop Ltd\nDate: 01/02/2024\nTotal   65.40 GBP\n');
    assert.equal(f.totalMinor?.value, 6540n);
    assert.ok((f.totalMinor?.confidence ?? 0) >= 0.85);
    assert.ok((alone.totalMinor?.confidence ?? 1) < 0.8);
  });
});

describe('receipt text: amounts', () => {
  it('reads amounts by the currency exponent and printing (IDR, JPY, Rs)', () => {
    assert.equal(read('TOKO MAKMUR\nTOTAL   IDR 174,600\n').totalMinor?.value, 17460000n);
    assert.equal(read('Contoso\n合計 Total ¥4,500\n').totalMinor?.value, 4500n);
    assert.equal(read('OYO Rooms\nGrand Total    Rs 1939\n').totalMinor?.value, 193900n);
  });

  it('never glues two columns on a single space', () => {
    assert.deepEqual(
      amountsIn('Room   104.902 104.92').map((a) => a.value),
      [10492n],
    );
    assert.deepEqual(
      amountsIn('12 25.00').map((a) => a.value),
      [2500n],
    );
  });

  it('joins a capital OCR split from its word ("R echnungsbetrag")', () => {
    const f = read('Sonne GmbH\nDatum: 14.03.2024\nR echnungsbetrag   8,00 EUR\n', 'ocr');
    assert.equal(f.totalMinor?.value, 800n);
  });

  it('reads OCR damage "9, 50€" as one amount', () => {
    assert.deepEqual(
      amountsIn('Entrée tarif réduit 9, 50€', { ocr: true }).map((a) => a.value),
      [950n],
    );
  });
});

describe('receipt text: dates', () => {
  const first = (line: string, us = false) => datesIn(line, us)[0]?.value;
  it('reads numeric dates with dashes and written dates in seven languages', () => {
    assert.equal(first('FECHA: 31-10-21'), '2021-10-31');
    assert.equal(first('8-9-2022'), '2022-09-08');
    assert.equal(first('Invoice Date: August 3 , 2014'), '2014-08-03');
    assert.equal(first('Factuurdatum: 29 maart 2014'), '2014-03-29');
    assert.equal(first('Fecha: 15 de marzo de 2024'), '2024-03-15');
    assert.equal(first('Data: 10 gennaio 2022'), '2022-01-10');
    assert.equal(first('Data: 5 de dezembro de 2023'), '2023-12-05');
    assert.equal(first('Facture du 02 Juillet 2015'), '2015-07-02');
    assert.equal(first('27Mar21'), '2021-03-27');
    assert.equal(first('AUG 19, 2024'), '2024-08-19');
  });

  it('refuses implausible years', () => {
    assert.equal(first('Date: 12.03.2822'), undefined);
    assert.equal(first('1885-01-01'), undefined);
  });

  it('never takes a due date for the document date', () => {
    const f = read(
      'Free SAS\nFacture n°562044387 du 02 Juillet 2015\nDate limite de paiement le 05 Juillet 2015\nTotal TTC   29,99 €\n',
    );
    assert.equal(f.date?.value, '2015-07-02');
    assert.equal(f.dueDate?.value, '2015-07-05');
  });

  it('reads a date under its column heading in layout text', () => {
    const f = read(
      [
        ' Klant             Order             Factuur datum        Vervaldatum',
        ' SCONL0303         SCONL0004             8-9-2022           22-9-2022',
        ' Factuur totaal EUR        49,99',
      ].join('\n'),
    );
    assert.equal(f.date?.value, '2022-09-08');
  });
});

describe('receipt text: currency', () => {
  const currency = (text: string) => read(text).currency;
  it('reads RON, INR, IDR and EURO', () => {
    assert.equal(currency('Auchan Romania SA\nTOTAL   168,95 LEI\nRON')?.value, 'RON');
    assert.equal(currency('Grand Total   Rs 1939')?.value, 'INR');
    assert.equal(currency('Total ₹ 319.00')?.value, 'INR');
    assert.equal(currency('TOTAL IDR 174,600')?.value, 'IDR');
    assert.equal(currency('TOTAL EURO 12,40')?.value, 'EUR');
  });

  it('resolves $ by country, and leaves a $ with no country for review', () => {
    assert.equal(currency('Maple Café\nToronto, ON M5V 2T6\nHST 13%  1.30\nTotal $11.30')?.value, 'CAD');
    assert.equal(currency('Taquería El Sol\nCiudad de México\nRFC SOL123456\nTotal $250.00')?.value, 'MXN');
    assert.equal(currency('Corner Store\nRedmond, WA 98052\nTotal $12.00')?.value, 'USD');
    const bare = currency('Some Shop\nTotal $12.00');
    assert.equal(bare?.value, 'USD');
    assert.ok((bare?.confidence ?? 1) < 0.8);
  });

  it('never reads a currency from a $ inside a phone number', () => {
    assert.equal(currency('Corner Shop\nTel: 0$123 456 789\nTotal 12,00'), undefined);
  });
});

describe('receipt text: merchant', () => {
  const merchant = (text: string) => read(text).merchant?.value;
  it('never takes the bill-to party', () => {
    const text = [
      'BILL TO',
      'ACME Customer Corp',
      '5 Client Road',
      'FROM',
      'Cloudly Hosting Ltd',
      'Invoice date: 01/02/2024',
      'Total   £120.00',
    ].join('\n');
    assert.equal(merchant(text), 'Cloudly Hosting Ltd');
    assert.equal(read(text, 'ocr').merchant?.value, 'Cloudly Hosting Ltd');
  });

  it('takes a seller named inline, in the legal footer, or by the web domain', () => {
    assert.equal(
      merchant('Retail Invoice\nSold By : WS Retail Services Pvt. Ltd.,\nTotal Rs 319.00'),
      'WS Retail Services Pvt. Ltd.',
    );
    const footer = [
      'PAYMENT RECEIPT',
      'Guest Name: Sanjay                 Date: 31/12/2017',
      'Grand Total                        Rs 1939',
      '                   Oravel Stays Private Limited',
      '   Registered Office: Delhi, Level 4',
    ].join('\n');
    assert.equal(merchant(footer), 'Oravel Stays Private Limited');
    assert.equal(merchant('RECEIPT\n12/03/2024\nTotal 12.00 EUR\nwww.laptopshop.nl'), 'Laptopshop');
  });

  it('reads a letter-spaced letterhead', () => {
    assert.equal(
      merchant('    R E W E Jürgen Maziejewski OHG\n    Im Weidenbruch 136, 51061 Köln\nSUMME   EUR  39,44'),
      'REWE Jürgen Maziejewski OHG',
    );
  });
});

describe('receipt text: confidence and review reasons', () => {
  it('is ready when total, date and currency are confirmed', () => {
    const r = ready(
      'Shop Ltd\nDate: 01/02/2024\nSubtotal   54.50\nVAT 20%   54.50   10.90\nTotal   65.40 GBP\n',
    );
    assert.equal(r.status, 'ready');
  });

  it('names the field and the doubt when a value is a guess', () => {
    // A bare "Total" nothing confirms, two unlabelled dates, a $ with no country.
    const r = ready('Some Shop\n01/02/2024\n03/02/2024\nTotal $12.00\n');
    assert.equal(r.status, 'needs_review');
    for (const reason of ['total_uncertain', 'date_uncertain', 'currency_uncertain'] as const)
      assert.ok(r.reasons.includes(reason), reason);
  });

  it('scales confidence down for OCR text, so a lone OCR total is never ready', () => {
    const r = ready('Shop Ltd\nDate: 01/02/2024\nGrand total   65.40 GBP\n', 'ocr');
    assert.equal(r.status, 'needs_review');
    assert.ok(r.reasons.includes('total_uncertain'));
  });
});
