import { DATE_MIN, isDateInRange } from '../../contract/formats.ts';
import type { ExtractedFields, ExtractionKind, ExtractionResult, ReviewReason } from './types.ts';

// Decides ready vs needs_review: the fields bookkeeping cannot do without, totals that add up,
// and confidence. E-invoices pass on their own arithmetic; text and OCR also on confidence.
// A receipt is ready only when its total, date and currency are each sure (SURE): for text
// heuristics that means a value other printed figures confirm (see text/totals.ts), not a label
// alone. Each doubt is a reason naming the field: `total_uncertain`, `date_uncertain`,
// `currency_uncertain`, `merchant_uncertain`.

const SURE = 0.8;
const MERCHANT_SURE = 0.5;

function addsUp(fields: ExtractedFields): boolean {
  const total = fields.totalMinor?.value;
  const net = fields.netMinor?.value;
  if (total === undefined || net === undefined) return true;
  const tax = fields.taxMinor?.value ?? 0n;
  const tip = fields.tipMinor?.value ?? 0n;
  // Net plus tax (plus tip), or a gross subtotal with tax included (receipts print both ways).
  return [net + tax, net + tax + tip, net, net + tip].includes(total);
}

/**
 * Whether a date read from a receipt can be its date (docs/decisions.md 322): a real date within
 * the service's range, not before 1900 and at most a year after `today` (YYYY-MM-DD). An OCR misread
 * (the year 2822, 0001) fails it and becomes the review reason `implausible_date`, not a date.
 */
export function isPlausibleReceiptDate(date: string, today: string): boolean {
  if (!isDateInRange(date) || date < DATE_MIN) return false;
  const latest = `${String(Number(today.slice(0, 4)) + 1).padStart(4, '0')}${today.slice(4)}`;
  return date <= latest;
}

export function finish(
  kind: ExtractionKind,
  fields: ExtractedFields,
  extra: ReviewReason[] = [],
  today: string = new Date().toISOString().slice(0, 10),
): ExtractionResult {
  const reasons = new Set<ReviewReason>(extra);
  // No issue date but a service period: dated by its start, when subscriptions are charged
  // (docs/decisions.md 430); no surer than the period it comes from.
  if (!fields.date && fields.servicePeriod) {
    const period = fields.servicePeriod;
    fields = {
      ...fields,
      date: {
        value: period.value.start,
        confidence: Math.min(period.confidence, 0.85),
        source: period.source,
      },
    };
  }
  if (fields.date && !isPlausibleReceiptDate(fields.date.value, today)) {
    const { date: _implausible, ...rest } = fields;
    fields = rest;
    reasons.add('implausible_date');
  }
  if (!fields.totalMinor) reasons.add('missing_total');
  // A date read but implausible is said as such, not as a missing one.
  if (!fields.date && !reasons.has('implausible_date')) reasons.add('missing_date');
  if (!fields.merchant) reasons.add('missing_merchant');
  if (!fields.currency) reasons.add('missing_currency');
  // A total confirmed by other figures (confidence above SURE) stands even if the net found is another figure.
  if (!addsUp(fields) && (fields.totalMinor?.confidence ?? 0) < 0.9) reasons.add('totals_inconsistent');
  const doubts: [keyof ExtractedFields, ReviewReason, number][] = [
    ['totalMinor', 'total_uncertain', SURE],
    ['date', 'date_uncertain', SURE],
    ['currency', 'currency_uncertain', SURE],
    ['merchant', 'merchant_uncertain', MERCHANT_SURE],
  ];
  for (const [key, reason, sure] of doubts) {
    const field = fields[key];
    if (field && !Array.isArray(field) && field.confidence < sure) reasons.add(reason);
  }
  return { status: reasons.size === 0 ? 'ready' : 'needs_review', kind, fields, reasons: [...reasons] };
}
