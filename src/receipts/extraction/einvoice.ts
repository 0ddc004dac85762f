import { readCii } from './cii.ts';
import { type ExtractedFields, ExtractionFailure } from './types.ts';
import { readUbl } from './ubl.ts';
import { decodeXmlBytes, parseXml } from './xml.ts';

// Routes an XML document to its syntax binding by root element and namespace.

const UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
/** ZUGFeRD 1.0: CII D13 under its own root and namespace. */
const ZUGFERD_1 = 'urn:ferd:CrossIndustryDocument:invoice:1p0';

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
  if (
    (root.local === 'CrossIndustryInvoice' && root.ns === CII) ||
    (root.local === 'CrossIndustryDocument' && root.ns === ZUGFERD_1)
  )
    return { syntax: 'cii', fields: normalize(readCii(root)) };
  throw new ExtractionFailure(
    'unsupported_type',
    `XML root ${root.local} (${root.ns}) is not a UBL or CII invoice`,
  );
}

/**
 * The first of a PDF's invoice attachments (best first) that reads as an e-invoice with a total;
 * failing that the first that reads at all; undefined when none does (the PDF's text is read then).
 */
export function readBestEInvoice(
  attachments: ReadonlyArray<{ bytes: Buffer }>,
): { syntax: EInvoiceSyntax; fields: ExtractedFields } | undefined {
  let fallback: { syntax: EInvoiceSyntax; fields: ExtractedFields } | undefined;
  for (const attachment of attachments) {
    try {
      const read = readEInvoice(attachment.bytes);
      if (read.fields.totalMinor) return read;
      fallback ??= read;
    } catch {
      // Not an invoice this reader knows (or broken): try the next attachment.
    }
  }
  return fallback;
}
