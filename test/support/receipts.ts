import PDFDocument from 'pdfkit';
/**
 * A minimal UBL 2.1 invoice: enough for extraction to read merchant, date, currency, one tax line
 * and the payable amount, optionally a card (PaymentMeans with the card's last four) and an
 * order reference. Distinct `id`s give distinct bytes (no dedupe between them).
 */
export function ublReceipt(options: {
  id: string;
  merchant: string;
  date: string;
  /** Gross amount to pay, minor units (tax 19% included). */
  amountMinor: bigint;
  currency?: string;
  cardLastFour?: string;
  orderNumber?: string;
  /** BG-14 cac:InvoicePeriod, ISO dates. */
  servicePeriod?: { start: string; end: string };
}): Buffer {
  const currency = options.currency ?? 'EUR';
  const gross = options.amountMinor;
  const net = (gross * 100n) / 119n;
  const tax = gross - net;
  const money = (minor: bigint) => `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
  const amount = (tag: string, minor: bigint) =>
    `<cbc:${tag} currencyID="${currency}">${money(minor)}</cbc:${tag}>`;
  const card = options.cardLastFour
    ? `<cac:PaymentMeans><cbc:PaymentMeansCode>48</cbc:PaymentMeansCode><cac:CardAccount><cbc:PrimaryAccountNumberID>${options.cardLastFour}</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount></cac:PaymentMeans>`
    : '';
  const order = options.orderNumber
    ? `<cac:OrderReference><cbc:ID>${options.orderNumber}</cbc:ID></cac:OrderReference>`
    : '';
  const period = options.servicePeriod
    ? `<cac:InvoicePeriod><cbc:StartDate>${options.servicePeriod.start}</cbc:StartDate><cbc:EndDate>${options.servicePeriod.end}</cbc:EndDate></cac:InvoicePeriod>`
    : '';
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:ID>${options.id}</cbc:ID><cbc:IssueDate>${options.date}</cbc:IssueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode><cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>${period}${order}
<cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>${options.merchant}</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>${card}
<cac:TaxTotal>${amount('TaxAmount', tax)}<cac:TaxSubtotal>${amount('TaxableAmount', net)}${amount('TaxAmount', tax)}<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal>${amount('LineExtensionAmount', net)}${amount('TaxExclusiveAmount', net)}${amount('TaxInclusiveAmount', gross)}${amount('PayableAmount', gross)}</cac:LegalMonetaryTotal>
</Invoice>`);
}

/** A one-page PDF receipt with a merchant and a total (23.80 EUR) and no date: read, but it needs review. */
export function undatedSlip(merchant = 'Corner Bistro GmbH'): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A6' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.fontSize(12).text(merchant);
    doc.text('Hauptstrasse 1, 10115 Berlin');
    doc.moveDown().text('Soup of the day 9.80');
    doc.text('Bread and butter 14.00');
    doc.moveDown().text('Total 23.80 EUR');
    doc.end();
  });
}

/** A one-page PDF with a text layer, one line per string (pdfkit; read back with pdftotext). */
export function textPdf(lines: readonly string[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.fontSize(11);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}
