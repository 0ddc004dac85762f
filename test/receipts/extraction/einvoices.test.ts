import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { itWithSample, sampleBytes } from '../../support/samples.ts';
import { einvoiceFixture } from './einvoice-fixtures.ts';
import { einvoiceCases as cases } from './fixtures/einvoices.ts';

describe('receipts extraction: real e-invoices (the vendored samples; all of the corpus in test:corpus)', () => {
  for (const c of cases) {
    itWithSample(`einvoices/${c.file}`, `reads ${c.file} exactly`, async () => {
      const mediaType = c.file.endsWith('.pdf') ? 'application/pdf' : 'application/xml';
      const bytes = sampleBytes(`einvoices/${c.file}`);
      const result = await extractReceipt({ bytes, fileName: c.file, mediaType });
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
      bytes: einvoiceFixture('cii-invoice.xml'),
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

describe('receipts extraction: the buyer and payment terms, for the readable invoice', () => {
  it('reads the UBL buyer (legal name first) and the payment terms note', async () => {
    const result = await extractReceipt({
      bytes: einvoiceFixture('ubl-invoice.xml'),
      fileName: 'x.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status === 'ready');
    assert.equal(result.fields.buyer?.value, 'Example Buyer Ltd');
    assert.equal(result.fields.paymentTerms?.value, 'Payment within 30 days');
  });

  it('reads the CII buyer and the payment terms description', async () => {
    const xml = einvoiceFixture('cii-invoice.xml')
      .toString('utf8')
      .replace(
        '<ram:DueDateDateTime>',
        '<ram:Description>Net 30, 2% within 10 days</ram:Description><ram:DueDateDateTime>',
      );
    const result = await extractReceipt({
      bytes: Buffer.from(xml),
      fileName: 'x.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status === 'ready');
    assert.equal(result.fields.buyer?.value, 'Example Buyer SARL');
    assert.equal(result.fields.paymentTerms?.value, 'Net 30, 2% within 10 days');
  });
});

describe('receipts extraction: card payments in e-invoices', () => {
  it('reads the card of a UBL PaymentMeans/CardAccount', async () => {
    const xml = einvoiceFixture('ubl-invoice.xml')
      .toString('utf8')
      .replace(
        '<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>',
        '<cbc:PaymentMeansCode>54</cbc:PaymentMeansCode><cac:CardAccount><cbc:PrimaryAccountNumberID>************4242</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>',
      );
    const result = await extractReceipt({
      bytes: Buffer.from(xml),
      fileName: 'card.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status === 'ready');
    assert.equal(result.fields.paymentMethod?.value, 'card');
    assert.equal(result.fields.cardLastFour?.value, '4242');
    assert.deepEqual(result.fields.cardLastFour?.source, {
      kind: 'xml',
      path: '/Invoice/cac:PaymentMeans[1]/cac:CardAccount/cbc:PrimaryAccountNumberID',
    });
  });

  it('reads the card of a CII ApplicableTradeSettlementFinancialCard', async () => {
    const xml = einvoiceFixture('cii-invoice.xml')
      .toString('utf8')
      .replace(
        /<ram:SpecifiedTradeSettlementPaymentMeans>\s*<ram:TypeCode>30<\/ram:TypeCode>/,
        '<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>48</ram:TypeCode><ram:ApplicableTradeSettlementFinancialCard><ram:ID>XXXX-XXXX-XXXX-1234</ram:ID><ram:CardholderName>A Buyer</ram:CardholderName></ram:ApplicableTradeSettlementFinancialCard>',
      );
    const result = await extractReceipt({
      bytes: Buffer.from(xml),
      fileName: 'card.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status === 'ready');
    assert.equal(result.fields.paymentMethod?.value, 'card');
    assert.equal(result.fields.cardLastFour?.value, '1234');
  });
});
