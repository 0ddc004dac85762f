// The contract of receipt extraction: what the intake step gets back for one uploaded file.
// Money is always an exact integer of minor units (bigint); unit prices and rates, which may
// carry more digits than the currency's minor unit, are decimal strings. Never floats.

/** Where a value was read: an XPath-like path into the XML, a span of one page's text, or OCR. */
export type FieldSource =
  | { kind: 'xml'; path: string }
  | { kind: 'text'; page: number; start: number; end: number }
  | { kind: 'ocr'; page: number; start: number; end: number; bbox?: [number, number, number, number] };

export interface Field<T> {
  value: T;
  /** 0-1: 1 for a value read from a structured e-invoice, lower for heuristics over text and OCR. */
  confidence: number;
  source: FieldSource;
}

/** A span of days a document bills for, both ends included (ISO dates). */
export interface ServicePeriod {
  start: string;
  end: string;
}

export type DocumentType = 'invoice' | 'credit_note' | 'receipt';

export interface TaxLine {
  /** Percent as a decimal string, e.g. "19", "5.5"; absent when the document gives none. */
  rate: string | null;
  taxableMinor: bigint | null;
  taxMinor: bigint;
  /** EN 16931 VAT category code (S, Z, E, AE, K, G, O, L, M) for e-invoices; null from text. */
  category: string | null;
}

export interface LineItem {
  description: string;
  quantity: string | null;
  unitPrice: string | null;
  amountMinor: bigint | null;
  taxRate: string | null;
}

/**
 * Amounts are signed by meaning: a credit note's totals, tax lines and line amounts are negative
 * (money coming back), whatever sign the document prints them with; `documentType` says so too.
 */
export interface ExtractedFields {
  merchant?: Field<string>;
  merchantTaxId?: Field<string>;
  /** Who the document is addressed to (an e-invoice's buyer, BT-44); shown, never matched on. */
  buyer?: Field<string>;
  documentNumber?: Field<string>;
  orderNumber?: Field<string>;
  documentType?: Field<DocumentType>;
  /** ISO dates (YYYY-MM-DD). */
  date?: Field<string>;
  dueDate?: Field<string>;
  /**
   * The service period the document bills (BG-14: UBL `cac:InvoicePeriod`, CII
   * `ram:BillingSpecifiedPeriod`; from text "Billing period", "Leistungszeitraum", "Période du ... au
   * ..."), ISO dates, start <= end. Matching expects a subscription's charge at its start.
   */
  servicePeriod?: Field<ServicePeriod>;
  /** ISO 4217 code. */
  currency?: Field<string>;
  /** The document's gross total (tax included), before prepaid amounts are subtracted. */
  totalMinor?: Field<bigint>;
  /** What is still to pay: the total minus prepaid amounts (and plus rounding). */
  amountDueMinor?: Field<bigint>;
  netMinor?: Field<bigint>;
  taxMinor?: Field<bigint>;
  tipMinor?: Field<bigint>;
  taxLines: Field<TaxLine>[];
  paymentMethod?: Field<string>;
  /** The payment terms as the document words them (BT-20), e.g. "30 days net, 2% within 10 days". */
  paymentTerms?: Field<string>;
  cardLastFour?: Field<string>;
  /** Card scheme when the document names it (Visa, Mastercard...). */
  cardBrand?: Field<string>;
  lineItems: Field<LineItem>[];
}

export type ExtractionKind = 'einvoice_ubl' | 'einvoice_cii' | 'facturx' | 'pdf_text' | 'image_ocr';

/**
 * Stable failure codes:
 * - unsupported_type: a file type receipts are never read from (zip, office, executables...).
 * - type_mismatch: the file name or media type claims a type the bytes at offset 0 contradict.
 * - unsafe_xml: XML with a DOCTYPE or entity declaration (entity bombs, XXE) - refused unread.
 * - too_large: input over the byte cap, an image over the pixel cap, or a stream that inflates past its cap.
 * - timeout: the extraction ran past its wall-clock limit and was killed.
 * - memory_limit: the extraction child ran out of its memory (OS limit or V8 heap) and was killed.
 * - corrupt_file: bytes that claim a format but cannot be read as it.
 */
export type FailureCode =
  | 'unsupported_type'
  | 'type_mismatch'
  | 'unsafe_xml'
  | 'too_large'
  | 'timeout'
  | 'memory_limit'
  | 'corrupt_file';

/**
 * Reasons a result needs review; `ocr_unavailable` when an image or scan arrives and tesseract is
 * absent, `reader_unavailable` when a PDF arrives and pdftotext is absent (both are read again
 * once the program is installed: processing/reread-unavailable.ts); `<field>_uncertain` when a
 * key field was read but not surely (its confidence says how sure: a total no other printed
 * figure confirms, a date among several unlabelled ones, a `$` with no country, a merchant
 * guessed from a heading).
 */
export type ReviewReason =
  | 'total_uncertain'
  | 'date_uncertain'
  | 'currency_uncertain'
  | 'merchant_uncertain'
  | 'ocr_unavailable'
  | 'reader_unavailable'
  | 'missing_total'
  | 'missing_date'
  /** A date was read but lies outside the plausible window (finish.ts); it is not kept. */
  | 'implausible_date'
  | 'missing_merchant'
  | 'missing_currency'
  | 'totals_inconsistent'
  | 'low_confidence'
  | 'no_text';

export type ExtractionResult =
  | {
      status: 'ready' | 'needs_review';
      kind: ExtractionKind;
      fields: ExtractedFields;
      reasons: ReviewReason[];
    }
  | { status: 'failed'; code: FailureCode; reason: string };

export interface ExtractionInput {
  bytes: Buffer;
  fileName: string;
  mediaType: string;
}

export interface ExtractionLimits {
  /** Input cap in bytes (10 MB). */
  maxBytes: number;
  /** Wall-clock limit for the whole extraction, the child's start included. */
  timeoutMs: number;
  /** V8 heap limit of the extraction child process. */
  maxHeapMb: number;
  /** OS limit on the extraction child's whole memory (prlimit --data), tools it starts each alike. */
  maxMemoryMb: number;
  /** Largest image accepted, in pixels (width x height from the header, checked before decoding). */
  maxPixels: number;
  /** Cap on any decompressed stream (embedded XML) and on a child process's output. */
  maxInflatedBytes: number;
  /** Whether OCR may run (tesseract present is checked separately). */
  ocr: boolean;
}

export const defaultLimits: ExtractionLimits = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 20_000,
  maxHeapMb: 256,
  maxMemoryMb: 1024,
  maxPixels: 40_000_000,
  maxInflatedBytes: 20 * 1024 * 1024,
  ocr: true,
};

/** A failure raised deep in a parser, carried to the result unchanged. */
export class ExtractionFailure extends Error {
  constructor(
    readonly code: FailureCode,
    reason: string,
  ) {
    super(reason);
  }
}
