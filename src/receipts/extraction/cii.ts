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

// UN/CEFACT Cross Industry Invoice (D16B) as bound by EN 16931 (and Factur-X/ZUGFeRD 2, XRechnung),
// and its predecessor ZUGFeRD 1.0 (`CrossIndustryDocument`, CII D13 names). Paths follow the CII
// syntax binding; elements are matched by local name. The two generations differ only in the names
// of the containers, so one reader takes the generation's names.

/** Container names of one CII generation. */
interface CiiNames {
  doc: string;
  tx: string;
  agreement: string;
  settlement: string;
  summary: string;
  orderId: string;
  lineAgreement: string;
  lineDelivery: string;
  lineSettlement: string;
  lineSummary: string;
  rate: string;
}

const D16B: CiiNames = {
  doc: 'ExchangedDocument',
  tx: 'SupplyChainTradeTransaction',
  agreement: 'ApplicableHeaderTradeAgreement',
  settlement: 'ApplicableHeaderTradeSettlement',
  summary: 'SpecifiedTradeSettlementHeaderMonetarySummation',
  orderId: 'IssuerAssignedID',
  lineAgreement: 'SpecifiedLineTradeAgreement',
  lineDelivery: 'SpecifiedLineTradeDelivery',
  lineSettlement: 'SpecifiedLineTradeSettlement',
  lineSummary: 'SpecifiedTradeSettlementLineMonetarySummation',
  rate: 'RateApplicablePercent',
};

/** ZUGFeRD 1.0 (urn:ferd:CrossIndustryDocument:invoice:1p0). */
const ZUGFERD_1: CiiNames = {
  doc: 'HeaderExchangedDocument',
  tx: 'SpecifiedSupplyChainTradeTransaction',
  agreement: 'ApplicableSupplyChainTradeAgreement',
  settlement: 'ApplicableSupplyChainTradeSettlement',
  summary: 'SpecifiedTradeSettlementMonetarySummation',
  orderId: 'ID',
  lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
  lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
  lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
  lineSummary: 'SpecifiedTradeSettlementMonetarySummation',
  rate: 'ApplicablePercent',
};

/** BT-110: several TaxTotalAmount may appear (one per currency); take the invoice currency's. */
function taxTotal(summary: XmlElement | undefined, currency: string | undefined) {
  const all = findAll(summary, 'TaxTotalAmount');
  return (
    all.find((el) => el.attrs.get('currencyID') === currency) ?? all.find((el) => !el.attrs.has('currencyID'))
  );
}

export function readCii(root: XmlElement): ExtractedFields {
  const n = root.local === 'CrossIndustryDocument' ? ZUGFERD_1 : D16B;
  const fields = emptyFields();
  const doc = find(root, n.doc);
  const tx = find(root, n.tx);
  const agreement = find(tx, n.agreement);
  const settlement = find(tx, n.settlement);
  const currency = textOf(find(settlement, 'InvoiceCurrencyCode'));

  fields.documentNumber = textField(find(doc, 'ID'));
  const typeEl = find(doc, 'TypeCode');
  if (typeEl) fields.documentType = xmlField(typeEl, documentTypeOf(textOf(typeEl), root.local));
  fields.date = dateField(find(doc, 'IssueDateTime', 'DateTimeString'));
  fields.currency = textField(find(settlement, 'InvoiceCurrencyCode'));

  const seller = find(agreement, 'SellerTradeParty');
  fields.merchant = textField(find(seller, 'Name'));
  // BT-31 VAT identifier (schemeID VA), else BT-32 tax registration (FC).
  const registrations = findAll(seller, 'SpecifiedTaxRegistration', 'ID');
  fields.merchantTaxId = textField(
    registrations.find((el) => el.attrs.get('schemeID') === 'VA') ?? registrations[0],
  );
  fields.orderNumber = textField(find(agreement, 'BuyerOrderReferencedDocument', n.orderId));

  fields.buyer = textField(find(agreement, 'BuyerTradeParty', 'Name'));

  const terms = findAll(settlement, 'SpecifiedTradePaymentTerms');
  fields.paymentTerms = textField(terms.map((t) => find(t, 'Description')).find((el) => el !== undefined));
  fields.dueDate = dateField(
    terms.map((t) => find(t, 'DueDateDateTime', 'DateTimeString')).find((el) => el !== undefined),
  );

  // BG-14 (BT-73/74); ZUGFeRD 1.0 names it the same.
  const period = find(settlement, 'BillingSpecifiedPeriod');
  fields.servicePeriod = periodField(
    period,
    find(period, 'StartDateTime', 'DateTimeString'),
    find(period, 'EndDateTime', 'DateTimeString'),
  );

  const means = find(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const meansCode = find(means, 'TypeCode');
  const meansText = textOf(meansCode);
  if (meansCode && meansText) fields.paymentMethod = xmlField(meansCode, paymentMethodOf(meansText));
  const card = find(means, 'ApplicableTradeSettlementFinancialCard', 'ID');
  const lastFour = lastFourOf(textOf(card));
  if (card && lastFour) fields.cardLastFour = xmlField(card, lastFour);

  const summary = find(settlement, n.summary);
  fields.netMinor = moneyField(find(summary, 'TaxBasisTotalAmount'), currency);
  fields.taxMinor = moneyField(taxTotal(summary, currency), currency);
  fields.totalMinor = moneyField(find(summary, 'GrandTotalAmount'), currency);
  fields.amountDueMinor = moneyField(find(summary, 'DuePayableAmount'), currency);

  for (const tax of findAll(settlement, 'ApplicableTradeTax')) {
    const taxMinor = moneyOf(find(tax, 'CalculatedAmount'), currency);
    if (taxMinor === null) continue;
    fields.taxLines.push(
      xmlField(tax, {
        rate: decimalOf(find(tax, n.rate)),
        taxableMinor: moneyOf(find(tax, 'BasisAmount'), currency),
        taxMinor,
        category: textOf(find(tax, 'CategoryCode')) ?? null,
      }),
    );
  }

  for (const line of findAll(tx, 'IncludedSupplyChainTradeLineItem')) {
    const lineSettlement = find(line, n.lineSettlement);
    const agreementLine = find(line, n.lineAgreement);
    fields.lineItems.push(
      xmlField(line, {
        description: textOf(find(line, 'SpecifiedTradeProduct', 'Name')) ?? '',
        quantity: decimalOf(find(line, n.lineDelivery, 'BilledQuantity')),
        unitPrice: decimalOf(find(agreementLine, 'NetPriceProductTradePrice', 'ChargeAmount')),
        amountMinor: moneyOf(find(lineSettlement, n.lineSummary, 'LineTotalAmount'), currency),
        taxRate: decimalOf(find(lineSettlement, 'ApplicableTradeTax', n.rate)),
      }),
    );
  }
  return fields;
}
