import { readCii } from './cii.ts';
import { type ExtractedFields, ExtractionFailure } from './types.ts';
import { readUbl } from './ubl.ts';
import { decodeXmlBytes, parseXml } from './xml.ts';

// Routes an XML document to its syntax binding by root element and namespace.

const UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

export type EInvoiceSyntax = 'ubl' | 'cii';

/**
 * Signs by meaning: a credit note's amounts come out negative (the XML states them positive), and
 * an invoice whose total is negative (a French "avoir" sent as type 380) is flagged a credit note.
 * The tax total, when the document omits BT-110 (only category O/E lines), is the tax lines' sum.
 */
function normalize(fields: ExtractedFields): ExtractedFields {
  if (!fields.taxMinor && fields.taxLines.length > 0) {
    const first = fields.taxLines[0];
    const sum = fields.taxLines.reduce((acc, line) => acc + line.value.taxMinor, 0n);
    if (first) fields.taxMinor = { value: sum, confidence: 0.95, source: first.source };
  }
  const type = fields.documentType;
  if (type?.value === 'credit_note') {
    for (const key of ['totalMinor', 'amountDueMinor', 'netMinor', 'taxMinor'] as const) {
      const field = fields[key];
      if (field) fields[key] = { ...field, value: -field.value };
    }
    for (const line of fields.taxLines) {
      line.value.taxMinor = -line.value.taxMinor;
      if (line.value.taxableMinor !== null) line.value.taxableMinor = -line.value.taxableMinor;
    }
    for (const item of fields.lineItems) {
      if (item.value.amountMinor !== null) item.value.amountMinor = -item.value.amountMinor;
    }
  } else if (type && (fields.totalMinor?.value ?? 0n) < 0n) {
    fields.documentType = { ...type, value: 'credit_note' };
  }
  return fields;
}

export function readEInvoice(bytes: Buffer): { syntax: EInvoiceSyntax; fields: ExtractedFields } {
  const root = parseXml(decodeXmlBytes(bytes));
  if (
    (root.local === 'Invoice' && root.ns === UBL_INVOICE) ||
    (root.local === 'CreditNote' && root.ns === UBL_CREDIT_NOTE)
  ) {
    return { syntax: 'ubl', fields: normalize(readUbl(root)) };
  }
  if (root.local === 'CrossIndustryInvoice' && root.ns === CII)
    return { syntax: 'cii', fields: normalize(readCii(root)) };
  throw new ExtractionFailure(
    'unsupported_type',
    `XML root ${root.local} (${root.ns}) is not a UBL or CII invoice`,
  );
}
