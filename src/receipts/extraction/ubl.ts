import {
  dateField,
  decimalOf,
  documentTypeOf,
  emptyFields,
  lastFourOf,
  moneyField,
  moneyOf,
  paymentMethodOf,
  periodField,
  textField,
  xmlField,
} from './einvoice-common.ts';
import type { ExtractedFields } from './types.ts';
import type { XmlElement } from './xml.ts';
import { find, findAll, textOf } from './xml-query.ts';

// OASIS UBL 2.1 Invoice and CreditNote as bound by EN 16931 (PEPPOL BIS 3 included).

export function readUbl(root: XmlElement): ExtractedFields {
  const fields = emptyFields();
  const isCredit = root.local === 'CreditNote';
  const currencyEl = find(root, 'DocumentCurrencyCode');
  const currency = textOf(currencyEl);

  fields.documentNumber = textField(find(root, 'ID'));
  const typeEl = find(root, isCredit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode');
  if (typeEl) fields.documentType = xmlField(typeEl, documentTypeOf(textOf(typeEl), root.local));
  // CreditNoteTypeCode is optional in UBL: the root element alone makes it a credit note.
  else if (isCredit) fields.documentType = xmlField(root, 'credit_note');
  fields.date = dateField(find(root, 'IssueDate'));
  // BT-9: cbc:DueDate on an Invoice; a CreditNote carries it in PaymentMeans/PaymentDueDate.
  fields.dueDate = dateField(find(root, 'DueDate') ?? find(root, 'PaymentMeans', 'PaymentDueDate'));
  // BG-14 at document level (a line's own InvoicePeriod lies under InvoiceLine, not found here).
  const period = find(root, 'InvoicePeriod');
  fields.servicePeriod = periodField(period, find(period, 'StartDate'), find(period, 'EndDate'));
  fields.currency = textField(currencyEl);
  fields.orderNumber = textField(find(root, 'OrderReference', 'ID'));

  const seller = find(root, 'AccountingSupplierParty', 'Party');
  // BT-27 seller name is the legal registration name; the trading name (BT-28) is the fallback.
  fields.merchant =
    textField(find(seller, 'PartyLegalEntity', 'RegistrationName')) ??
    textField(find(seller, 'PartyName', 'Name'));
  const schemes = findAll(seller, 'PartyTaxScheme');
  const vat = schemes.find((s) => textOf(find(s, 'TaxScheme', 'ID')) === 'VAT') ?? schemes[0];
  fields.merchantTaxId = textField(find(vat, 'CompanyID'));

  const buyer = find(root, 'AccountingCustomerParty', 'Party');
  fields.buyer =
    textField(find(buyer, 'PartyLegalEntity', 'RegistrationName')) ??
    textField(find(buyer, 'PartyName', 'Name'));
  fields.paymentTerms = textField(find(root, 'PaymentTerms', 'Note'));

  const means = find(root, 'PaymentMeans');
  const meansCode = find(means, 'PaymentMeansCode');
  const meansText = textOf(meansCode);
  if (meansCode && meansText) fields.paymentMethod = xmlField(meansCode, paymentMethodOf(meansText));
  const pan = find(means, 'CardAccount', 'PrimaryAccountNumberID');
  const lastFour = lastFourOf(textOf(pan));
  if (pan && lastFour) fields.cardLastFour = xmlField(pan, lastFour);

  const totals = find(root, 'LegalMonetaryTotal');
  fields.netMinor = moneyField(find(totals, 'TaxExclusiveAmount'), currency);
  fields.totalMinor = moneyField(find(totals, 'TaxInclusiveAmount'), currency);
  fields.amountDueMinor = moneyField(find(totals, 'PayableAmount'), currency);

  // BT-110 is the TaxTotal in the document currency; a second TaxTotal (BT-111) may be in the
  // tax currency and has no subtotals.
  const taxTotals = findAll(root, 'TaxTotal');
  const docTaxTotal =
    taxTotals.find((t) => find(t, 'TaxAmount')?.attrs.get('currencyID') === currency) ?? taxTotals[0];
  fields.taxMinor = moneyField(find(docTaxTotal, 'TaxAmount'), currency);
  for (const sub of findAll(docTaxTotal, 'TaxSubtotal')) {
    const taxMinor = moneyOf(find(sub, 'TaxAmount'), currency);
    if (taxMinor === null) continue;
    fields.taxLines.push(
      xmlField(sub, {
        rate: decimalOf(find(sub, 'TaxCategory', 'Percent')),
        taxableMinor: moneyOf(find(sub, 'TaxableAmount'), currency),
        taxMinor,
        category: textOf(find(sub, 'TaxCategory', 'ID')) ?? null,
      }),
    );
  }

  for (const line of findAll(root, isCredit ? 'CreditNoteLine' : 'InvoiceLine')) {
    fields.lineItems.push(
      xmlField(line, {
        description: textOf(find(line, 'Item', 'Name')) ?? textOf(find(line, 'Item', 'Description')) ?? '',
        quantity: decimalOf(find(line, isCredit ? 'CreditedQuantity' : 'InvoicedQuantity')),
        unitPrice: decimalOf(find(line, 'Price', 'PriceAmount')),
        amountMinor: moneyOf(find(line, 'LineExtensionAmount'), currency),
        taxRate: decimalOf(find(line, 'Item', 'ClassifiedTaxCategory', 'Percent')),
      }),
    );
  }
  return fields;
}
