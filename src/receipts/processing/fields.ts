import type { ExtractedFields, ExtractionResult } from '../extraction/types.ts';
import type { ReceiptCandidate, ReceiptDocumentType } from '../matching/types.ts';

/** Extracted fields as stored and shown: bigints become decimal strings, everything else as is. */
export function fieldsToJson(fields: ExtractedFields): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(fields, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
  );
}

/** The summary columns of a read receipt: what lists and matching use without opening `fields`. */
export interface ReceiptSummary {
  merchant: string | null;
  date: string | null;
  /** What is to pay (amount due, else the total), signed: negative for a credit note. */
  totalMinor: bigint | null;
  currency: string | null;
  cardLastFour: string | null;
  /** Start of the service period, when the document prints one. */
  servicePeriodStart: string | null;
}

export function summaryOf(
  result: Extract<ExtractionResult, { status: 'ready' | 'needs_review' }>,
): ReceiptSummary {
  const f = result.fields;
  return {
    merchant: f.merchant?.value ?? null,
    date: f.date?.value ?? null,
    totalMinor: f.amountDueMinor?.value ?? f.totalMinor?.value ?? null,
    currency: f.currency?.value ?? null,
    cardLastFour: f.cardLastFour?.value ?? null,
    servicePeriodStart: f.servicePeriod?.value.start ?? null,
  };
}

interface StoredField {
  value?: unknown;
  confidence?: number;
}

const str = (field: StoredField | undefined): string | null =>
  typeof field?.value === 'string' ? field.value : null;
const conf = (field: StoredField | undefined): number =>
  typeof field?.confidence === 'number' ? field.confidence : 0;

/** A stored service period, when it is one: two ISO dates in order. */
function periodOf(field: StoredField | undefined): { start: string; end: string } | null {
  const v = field?.value as { start?: unknown; end?: unknown } | undefined;
  if (typeof v?.start !== 'string' || typeof v.end !== 'string') return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/;
  return iso.test(v.start) && iso.test(v.end) && v.start <= v.end ? { start: v.start, end: v.end } : null;
}

const DOCUMENT_TYPES: Record<string, ReceiptDocumentType> = {
  receipt: 'receipt',
  invoice: 'invoice',
  credit_note: 'refund',
};

/** The matching engine's view of a stored receipt (totals positive; the document type tells direction). */
export function receiptCandidate(row: {
  id: string;
  merchant: string | null;
  document_date: string | null;
  total_minor: unknown;
  currency: string | null;
  card_last_four: string | null;
  fields: unknown;
}): ReceiptCandidate {
  const fields = (typeof row.fields === 'string' ? JSON.parse(row.fields) : (row.fields ?? {})) as Record<
    string,
    StoredField | undefined
  >;
  const total = row.total_minor === null ? null : BigInt(String(row.total_minor));
  const totalField = fields.amountDueMinor ?? fields.totalMinor;
  return {
    id: row.id,
    merchant: row.merchant,
    date: row.document_date,
    totalMinor: total === null ? null : total < 0n ? -total : total,
    currency: row.currency,
    cardLastFour: row.card_last_four,
    paymentMethod: str(fields.paymentMethod),
    orderNumber: str(fields.orderNumber),
    servicePeriod: periodOf(fields.servicePeriod),
    // A negative total is a credit whatever the document calls itself (a return slip read as a
    // receipt): the sign is kept as the direction, so it looks for money in, not for the purchase.
    documentType:
      total !== null && total < 0n
        ? 'refund'
        : (DOCUMENT_TYPES[str(fields.documentType) ?? 'receipt'] ?? 'receipt'),
    confidence: {
      merchant: conf(fields.merchant),
      date: conf(fields.date),
      total: conf(totalField),
      currency: conf(fields.currency),
      cardLastFour: conf(fields.cardLastFour),
    },
  };
}
