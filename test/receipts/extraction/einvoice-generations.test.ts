import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';

// Documents of our own in the e-invoice generations still in use.
const ZUGFERD_1 = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"
  xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12"
  xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>
    <ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID>
  </ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument>
    <ram:ID>RE-1001</ram:ID><ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20130306</udt:DateTimeString></ram:IssueDateTime>
  </rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Lieferant GmbH</ram:Name>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Kunden AG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">37.62</ram:CalculatedAmount>
        <ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">198.00</ram:BasisAmount>
        <ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent>
      </ram:ApplicableTradeTax>
      <ram:SpecifiedTradeSettlementMonetarySummation>
        <ram:LineTotalAmount currencyID="EUR">198.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount currencyID="EUR">198.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">37.62</ram:TaxTotalAmount>
        <ram:GrandTotalAmount currencyID="EUR">235.62</ram:GrandTotalAmount>
        <ram:DuePayableAmount currencyID="EUR">235.62</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">20</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement>
        <ram:ApplicableTradeTax><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">198.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
      </ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Trennblätter A4</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;

const UBL_CREDIT_NOTE = `<?xml version="1.0" encoding="UTF-8"?>
<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>CN-7</cbc:ID><cbc:IssueDate>2026-02-03</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Seller BV</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">21.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">121.00</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">121.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</CreditNote>`;

async function pdfWith(files: Array<[string, string]>): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Rechnung');
  for (const [name, xml] of files) await doc.attach(Buffer.from(xml), name, { mimeType: 'text/xml' });
  return Buffer.from(await doc.save());
}

describe('receipts extraction: every e-invoice generation in use', () => {
  it('reads a ZUGFeRD 1.0 XML (CrossIndustryDocument)', async () => {
    const result = await extractReceipt({
      bytes: Buffer.from(ZUGFERD_1),
      fileName: 'zugferd.xml',
      mediaType: 'application/xml',
    });
    assert.equal(result.status !== 'failed' && result.kind, 'einvoice_cii');
    assert.ok(result.status !== 'failed');
    const f = result.fields;
    assert.equal(f.totalMinor?.value, 23562n);
    assert.equal(f.taxMinor?.value, 3762n);
    assert.equal(f.netMinor?.value, 19800n);
    assert.equal(f.date?.value, '2013-03-06');
    assert.equal(f.merchant?.value, 'Lieferant GmbH');
    assert.equal(f.merchantTaxId?.value, 'DE123456789');
    assert.equal(f.taxLines[0]?.value.rate, '19');
    assert.equal(f.lineItems[0]?.value.amountMinor, 19800n);
  });

  it('reads a ZUGFeRD 1.0 PDF (ZUGFeRD-invoice.xml attached)', async () => {
    const pdf = await pdfWith([['ZUGFeRD-invoice.xml', ZUGFERD_1]]);
    const result = await extractReceipt({
      bytes: pdf,
      fileName: 'rechnung.pdf',
      mediaType: 'application/pdf',
    });
    assert.equal(result.status !== 'failed' && result.kind, 'facturx');
    assert.ok(result.status !== 'failed');
    assert.equal(result.fields.totalMinor?.value, 23562n);
  });

  it('a PDF with several attachments: Factur-X first, the next one when the best fails', async () => {
    const newer = ZUGFERD_1.replace('235.62</ram:GrandTotalAmount>', '999.99</ram:GrandTotalAmount>');
    const facturX = newer
      .replaceAll('CrossIndustryDocument', 'CrossIndustryInvoice')
      .replace(
        'urn:ferd:CrossIndustryInvoice:invoice:1p0',
        'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
      )
      .replaceAll('HeaderExchangedDocument', 'ExchangedDocument')
      .replaceAll('SpecifiedSupplyChainTradeTransaction', 'SupplyChainTradeTransaction')
      .replaceAll('ApplicableSupplyChainTradeAgreement', 'ApplicableHeaderTradeAgreement')
      .replaceAll('ApplicableSupplyChainTradeSettlement', 'ApplicableHeaderTradeSettlement')
      .replace(
        /SpecifiedTradeSettlementMonetarySummation>(\s*<ram:LineTotalAmount currencyID="EUR">198.00<\/ram:LineTotalAmount>\s*<ram:TaxBasis)/,
        'SpecifiedTradeSettlementHeaderMonetarySummation>$1',
      )
      .replace(
        '</ram:SpecifiedTradeSettlementMonetarySummation>\n    </ram:ApplicableHeaderTradeSettlement>',
        '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>\n    </ram:ApplicableHeaderTradeSettlement>',
      );
    const both = await pdfWith([
      ['ZUGFeRD-invoice.xml', ZUGFERD_1],
      ['factur-x.xml', facturX],
    ]);
    const best = await extractReceipt({ bytes: both, fileName: 'x.pdf', mediaType: 'application/pdf' });
    assert.ok(best.status !== 'failed');
    assert.equal(best.fields.totalMinor?.value, 99999n);

    const broken = await pdfWith([
      [
        'factur-x.xml',
        '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">',
      ],
      ['ZUGFeRD-invoice.xml', ZUGFERD_1],
    ]);
    const fallback = await extractReceipt({ bytes: broken, fileName: 'x.pdf', mediaType: 'application/pdf' });
    assert.equal(fallback.status !== 'failed' && fallback.kind, 'facturx');
    assert.ok(fallback.status !== 'failed');
    assert.equal(fallback.fields.totalMinor?.value, 23562n);
  });

  it('a UBL CreditNote without CreditNoteTypeCode is a credit note with negative amounts', async () => {
    const result = await extractReceipt({
      bytes: Buffer.from(UBL_CREDIT_NOTE),
      fileName: 'cn.xml',
      mediaType: 'application/xml',
    });
    assert.ok(result.status !== 'failed');
    assert.equal(result.fields.documentType?.value, 'credit_note');
    assert.equal(result.fields.totalMinor?.value, -12100n);
    assert.equal(result.fields.taxMinor?.value, -2100n);
  });
});
