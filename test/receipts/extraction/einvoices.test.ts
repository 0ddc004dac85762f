import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { corpusFile } from './corpus.ts';

// Expected values read by hand from each XML (for the PDFs: from their embedded factur-x.xml),
// in the documents' own decimal notation. Credit notes come out negative (see types.ts).

interface Expected {
  file: string;
  kind: 'einvoice_ubl' | 'einvoice_cii' | 'facturx';
  number: string;
  date: string;
  dueDate?: string;
  currency: string;
  merchant: string;
  taxId?: string;
  orderNumber?: string;
  net: bigint;
  tax: bigint;
  total: bigint;
  due: bigint;
  /** category/rate/taxable/tax */
  taxLines: string[];
  lines: number;
  type: 'invoice' | 'credit_note';
  payment?: string;
}

const cases: Expected[] = [
  {
    file: 'cii-en16931-CII_business_example_02.xml',
    kind: 'einvoice_cii',
    number: 'INV000013',
    date: '2013-08-25',
    dueDate: '2013-05-10',
    currency: 'EUR',
    merchant: 'xxxx',
    taxId: 'DE1111111',
    net: 1000n,
    tax: 190n,
    total: 1190n,
    due: 1190n,
    taxLines: ['S/19/1000/190'],
    lines: 3,
    type: 'invoice',
    payment: 'credit_transfer',
  },
  {
    file: 'cii-en16931-CII_example3.xml',
    kind: 'einvoice_cii',
    number: 'TOSL108',
    date: '2013-04-10',
    dueDate: '2013-05-10',
    currency: 'DKK',
    merchant: 'SubscriptionSeller',
    taxId: 'DK16356706',
    net: 90000n,
    tax: 22500n,
    total: 112500n,
    due: 112500n,
    taxLines: ['S/25/90000/22500'],
    lines: 1,
    type: 'invoice',
    payment: 'credit_transfer',
  },
  // No TaxTotalAmount (category O only): the tax total is the tax lines' sum, 0.
  {
    file: 'cii-en16931-CII_example7.xml',
    kind: 'einvoice_cii',
    number: 'INVOICE_test_7',
    date: '2013-05-13',
    currency: 'SEK',
    merchant: 'The Sellercompany Incorporated',
    orderNumber: 'Order_9988_x',
    net: 320000n,
    tax: 0n,
    total: 320000n,
    due: 320000n,
    taxLines: ['O/null/320000/0'],
    lines: 2,
    type: 'invoice',
    payment: 'credit_transfer',
  },
  {
    file: 'cii-en16931-CII_example9.xml',
    kind: 'einvoice_cii',
    number: '20150483',
    date: '2015-04-01',
    dueDate: '2015-04-15',
    currency: 'EUR',
    merchant: 'Bluem BV',
    taxId: 'NL809163160B01',
    net: 14700n,
    tax: 3087n,
    total: 17787n,
    due: 17787n,
    taxLines: ['S/21/14700/3087'],
    lines: 1,
    type: 'invoice',
  },
  {
    file: 'cii-en16931-XRechnung-O.xml',
    kind: 'einvoice_cii',
    number: '150377292',
    date: '2021-01-14',
    dueDate: '2021-01-01',
    currency: 'EUR',
    merchant: 'XX',
    taxId: 'XX',
    net: 38554460n,
    tax: 0n,
    total: 38554460n,
    due: 38554460n,
    taxLines: ['O/0/38554460/0'],
    lines: 2,
    type: 'invoice',
  },
  {
    file: 'cii-en16931-huf_example_cii.xml',
    kind: 'einvoice_cii',
    number: '21/001003559/996',
    date: '2021-10-05',
    dueDate: '2021-11-01',
    currency: 'HUF',
    merchant: 'DKV Euro Service GmbH + Co. KG',
    taxId: 'HU30048650',
    net: 6918000n,
    tax: 1867900n,
    total: 8785900n,
    due: 8785900n,
    taxLines: ['S/27/6918000/1867900'],
    lines: 3,
    type: 'invoice',
  },
  // Partial invoice with a 50.00 prepayment: total 197.65, due 147.65.
  {
    file: 'facturx-mustang-EN16931_1_Teilrechnung.pdf',
    kind: 'facturx',
    number: '471102',
    date: '2018-06-05',
    currency: 'EUR',
    merchant: 'Lieferant GmbH',
    taxId: 'DE123456789',
    orderNumber: '2018-471331',
    net: 17749n,
    tax: 2016n,
    total: 19765n,
    due: 14765n,
    taxLines: ['S/7/11303/791', 'S/19/6446/1225'],
    lines: 4,
    type: 'invoice',
  },
  {
    file: 'facturx-mustang-EN16931_Einfach.pdf',
    kind: 'facturx',
    number: '471102',
    date: '2024-11-15',
    currency: 'EUR',
    merchant: 'Lieferant GmbH',
    taxId: 'DE123456789',
    net: 47300n,
    tax: 5687n,
    total: 52987n,
    due: 52987n,
    taxLines: ['S/7/27500/1925', 'S/19/19800/3762'],
    lines: 2,
    type: 'invoice',
  },
  // A French "avoir" sent as type 380 with negative amounts; BASIC WL carries no lines.
  {
    file: 'facturx-mustang-validAvoir_FR_type380_BASICWL.pdf',
    kind: 'facturx',
    number: 'AV-2017-0005',
    date: '2017-11-16',
    dueDate: '2017-11-16',
    currency: 'EUR',
    merchant: 'Au bon moulin',
    taxId: 'FR11999999998',
    orderNumber: 'PO445',
    net: -21848n,
    tax: -1499n,
    total: -23347n,
    due: -23347n,
    taxLines: ['S/20/-2048/-410', 'S/5.5/-19800/-1089'],
    lines: 0,
    type: 'credit_note',
  },
  {
    file: 'ubl-en16931-issue116.xml',
    kind: 'einvoice_ubl',
    number: '2018210',
    date: '2018-02-08',
    dueDate: '2018-03-07',
    currency: 'SEK',
    merchant: 'SÄLJARNAMNET',
    taxId: 'SE123456789001',
    net: 70000n,
    tax: 13000n,
    total: 83000n,
    due: 83000n,
    taxLines: ['S/6/10000/600', 'S/25/40000/10000', 'S/12/20000/2400', 'E/0/0/0'],
    lines: 4,
    type: 'invoice',
  },
  {
    file: 'ubl-en16931-ubl-tc434-creditnote1.xml',
    kind: 'einvoice_ubl',
    number: '018304 / 28865',
    date: '2019-09-23',
    currency: 'EUR',
    merchant: 'My Supplier Company',
    taxId: 'BE0000000196',
    net: -10011n,
    tax: 0n,
    total: -10011n,
    due: -10011n,
    taxLines: ['E/0/-10011/0'],
    lines: 1,
    type: 'credit_note',
    payment: 'other',
  },
  {
    file: 'ubl-en16931-ubl-tc434-example1.xml',
    kind: 'einvoice_ubl',
    number: '12115118',
    date: '2015-01-09',
    dueDate: '2015-01-09',
    currency: 'EUR',
    merchant: 'De Koksmaat',
    taxId: 'NL8200.98.395.B.01',
    net: 22960n,
    tax: 2073n,
    total: 25033n,
    due: 25033n,
    taxLines: ['S/6/18323/1099', 'S/21/4637/974'],
    lines: 20,
    type: 'invoice',
    payment: 'credit_transfer',
  },
  // 1000.00 prepaid: total 1801.78, payable 801.78.
  {
    file: 'ubl-en16931-ubl-tc434-example2.xml',
    kind: 'einvoice_ubl',
    number: 'TOSL108',
    date: '2013-06-30',
    dueDate: '2013-07-20',
    currency: 'NOK',
    merchant: 'Salescompany ltd.',
    taxId: 'NO123456789MVA',
    orderNumber: '123',
    net: 143650n,
    tax: 36528n,
    total: 180178n,
    due: 80178n,
    taxLines: ['S/25/146050/36513', 'S/15/100/15', 'E/0/-2500/0'],
    lines: 5,
    type: 'invoice',
    payment: 'credit_transfer',
  },
  {
    file: 'ubl-en16931-ubl-tc434-example5.xml',
    kind: 'einvoice_ubl',
    number: 'TOSL110',
    date: '2013-04-10',
    dueDate: '2013-05-10',
    currency: 'DKK',
    merchant: 'SellerCompany',
    taxId: 'NL16356706',
    orderNumber: 'PO4711',
    net: 400000n,
    tax: 67500n,
    total: 467500n,
    due: 233750n,
    taxLines: ['S/25/150000/37500', 'S/12/250000/30000'],
    lines: 3,
    type: 'invoice',
    payment: 'direct_debit',
  },
  {
    file: 'ubl-en16931-ubl-tc434-example8.xml',
    kind: 'einvoice_ubl',
    number: '1100512149',
    date: '2014-11-10',
    dueDate: '2014-11-24',
    currency: 'EUR',
    merchant: 'Enexis B.V.',
    taxId: 'NL809561074B01',
    net: 90891n,
    tax: 19087n,
    total: 109978n,
    due: 109978n,
    taxLines: ['S/21/90891/19087'],
    lines: 10,
    type: 'invoice',
    payment: 'credit_transfer',
  },
];

describe('receipts extraction: the e-invoice corpus', () => {
  for (const c of cases) {
    it(`reads ${c.file} exactly`, async () => {
      const mediaType = c.file.endsWith('.pdf') ? 'application/pdf' : 'application/xml';
      const result = await extractReceipt({ bytes: corpusFile(c.file), fileName: c.file, mediaType });
      assert.equal(
        result.status,
        'ready',
        JSON.stringify(result.status === 'failed' ? result : result.reasons),
      );
      const f = result.fields;
      assert.equal(result.kind, c.kind);
      assert.equal(f.documentNumber?.value, c.number);
      assert.equal(f.documentType?.value, c.type);
      assert.equal(f.date?.value, c.date);
      assert.equal(f.dueDate?.value, c.dueDate);
      assert.equal(f.currency?.value, c.currency);
      assert.equal(f.merchant?.value, c.merchant);
      assert.equal(f.merchantTaxId?.value, c.taxId);
      assert.equal(f.orderNumber?.value, c.orderNumber);
      assert.equal(f.netMinor?.value, c.net);
      assert.equal(f.taxMinor?.value, c.tax);
      assert.equal(f.totalMinor?.value, c.total);
      assert.equal(f.amountDueMinor?.value, c.due);
      assert.deepEqual(
        f.taxLines.map(
          (t) => `${t.value.category}/${t.value.rate}/${t.value.taxableMinor}/${t.value.taxMinor}`,
        ),
        c.taxLines,
      );
      assert.equal(f.lineItems.length, c.lines);
      if (c.payment) assert.equal(f.paymentMethod?.value, c.payment);
      // Every value points back at its element.
      assert.equal(f.totalMinor?.confidence, 1);
      assert.match(f.totalMinor?.source.kind === 'xml' ? f.totalMinor.source.path : '', /^\/(rsm:)?\w+\//);
    });
  }

  it('points at the exact element a value came from', async () => {
    const result = await extractReceipt({
      bytes: corpusFile('cii-en16931-CII_example3.xml'),
      fileName: 'x.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status === 'ready');
    assert.deepEqual(result.fields.totalMinor?.source, {
      kind: 'xml',
      path: '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount',
    });
    const line = result.fields.lineItems[0]?.value;
    assert.equal(line?.description, 'Paper subscription');
    assert.equal(line?.amountMinor, 80000n);
  });
});
