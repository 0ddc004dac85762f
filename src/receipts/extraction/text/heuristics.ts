import type { ExtractedFields, Field, FieldSource } from '../types.ts';
import {
  creditNoteWords,
  currencyCodes,
  currencySymbols,
  invoiceWords,
  labels,
  notGrandTotal,
} from './labels.ts';
import { lineItemsOf } from './line-items.ts';
import { merchantOf } from './merchant.ts';
import { readPayment } from './payment.ts';
import { amountsIn, datesIn, type Found } from './values.ts';

// Field heuristics over page texts (pdftotext -layout or OCR). Each value keeps the span it was
// read from; confidence is lower for OCR text and for values found without a label.

export interface TextLine {
  page: number;
  /** Offset of the line within its page's text. */
  start: number;
  text: string;
}

export type TextKind = 'text' | 'ocr';

export function linesOf(pages: string[]): TextLine[] {
  const lines: TextLine[] = [];
  pages.forEach((page, index) => {
    let start = 0;
    for (const text of page.split('\n')) {
      if (text.trim() !== '') lines.push({ page: index + 1, start, text });
      start += text.length + 1;
    }
  });
  return lines;
}

export class FieldMaker {
  constructor(private readonly kind: TextKind) {}
  make<T>(line: TextLine, found: { start: number; end: number }, value: T, confidence: number): Field<T> {
    const source: FieldSource = {
      kind: this.kind,
      page: line.page,
      start: line.start + found.start,
      end: line.start + found.end,
    };
    return { value, confidence: this.kind === 'ocr' ? confidence * 0.85 : confidence, source };
  }
}

/** The first value `read` finds after a label: same line, else the next line. */
function labelled<T>(
  lines: TextLine[],
  label: RegExp,
  read: (text: string) => Found<T> | undefined,
  skip?: RegExp,
): { line: TextLine; found: Found<T>; sameLine: boolean } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const m = label.exec(line.text);
    if (!m || (skip?.test(line.text) ?? false)) continue;
    const after = (m.index ?? 0) + m[0].length;
    const hit = read(line.text.slice(after));
    if (hit)
      return { line, found: { ...hit, start: hit.start + after, end: hit.end + after }, sameLine: true };
    const next = lines[i + 1];
    const below = next ? read(next.text) : undefined;
    if (next && below) return { line: next, found: below, sameLine: false };
  }
  return undefined;
}

const identifier = (text: string): Found<string> | undefined => {
  const m = /^[\s:#.]*([A-Za-z0-9][A-Za-z0-9\-/_.]*[A-Za-z0-9]|[A-Za-z0-9])/.exec(text);
  if (!m?.[1] || !/\d/.test(m[1])) return undefined;
  const start = m[0].length - m[1].length;
  return { value: m[1], start, end: m[0].length };
};
const lastAmount = (text: string) => amountsIn(text).at(-1);

export function readText(pages: string[], kind: TextKind): ExtractedFields {
  const lines = linesOf(pages);
  const f = new FieldMaker(kind);
  const fields: ExtractedFields = { taxLines: [], lineItems: [] };

  // Currency first: it decides US date order.
  for (const line of lines) {
    const code = currencyCodes.exec(line.text);
    const symbol = currencySymbols.map(([re, cur]) => ({ m: re.exec(line.text), cur })).find((s) => s.m);
    if (code)
      fields.currency = f.make(line, { start: code.index, end: code.index + code[0].length }, code[0], 0.9);
    else if (symbol?.m) {
      const at = symbol.m.index;
      fields.currency = f.make(line, { start: at, end: at + symbol.m[0].length }, symbol.cur, 0.85);
    }
    if (fields.currency) break;
  }
  const usOrder = fields.currency?.value === 'USD';

  const pick = <T>(label: RegExp, read: (t: string) => Found<T> | undefined, skip?: RegExp) => {
    const hit = labelled(lines, label, read, skip);
    return hit ? f.make(hit.line, hit.found, hit.found.value, hit.sameLine ? 0.9 : 0.75) : undefined;
  };
  const firstDate = (t: string) => datesIn(t, usOrder)[0];

  fields.documentNumber = pick(labels.documentNumber, identifier);
  fields.orderNumber = pick(labels.orderNumber, identifier);
  fields.dueDate = pick(labels.dueDate, firstDate);
  fields.date = pick(labels.date, firstDate, labels.dueDate);
  if (!fields.date) {
    const line = lines.find((l) => datesIn(l.text, usOrder).length > 0 && !labels.dueDate.test(l.text));
    const found = line ? datesIn(line.text, usOrder)[0] : undefined;
    if (line && found) fields.date = f.make(line, found, found.value, 0.6);
  }
  fields.merchantTaxId = pick(labels.taxId, identifier);
  fields.merchant = merchantOf(lines, f);

  // Totals: the grand total is the largest amount on a total line that is not a subtotal.
  let best: Field<bigint> | undefined;
  for (const line of lines) {
    const m = labels.total.exec(line.text);
    if (!m || notGrandTotal.test(line.text) || labels.amountDue.test(line.text)) continue;
    const amount = lastAmount(line.text.slice(m.index));
    if (!amount) continue;
    const shifted = { start: amount.start + m.index, end: amount.end + m.index };
    if (!best || abs(amount.value) > abs(best.value)) best = f.make(line, shifted, amount.value, 0.85);
  }
  fields.amountDueMinor = pick(labels.amountDue, lastAmount);
  fields.totalMinor = best ?? fields.amountDueMinor;
  if (!fields.amountDueMinor && fields.totalMinor) fields.amountDueMinor = fields.totalMinor;
  fields.netMinor = pick(labels.net, lastAmount);
  fields.tipMinor = pick(labels.tip, lastAmount);

  for (const line of lines) {
    const m = labels.tax.exec(line.text);
    if (!m || notGrandTotal.test(line.text.slice(0, m.index))) continue;
    const after = m.index + m[0].length;
    const amounts = amountsIn(line.text.slice(after));
    const tax = amounts.at(-1);
    if (!tax) continue;
    const base = amounts.length > 1 ? amounts.at(-2) : undefined;
    const rate = (m[2] ?? '').replace(',', '.').replace(/\.0+$|(\.\d*?)0+$/, '$1');
    fields.taxLines.push(
      f.make(
        line,
        { start: m.index, end: after + tax.end },
        {
          rate,
          taxableMinor: base?.value ?? null,
          taxMinor: tax.value,
          category: null,
        },
        0.8,
      ),
    );
  }
  fields.taxMinor = pick(labels.taxTotal, lastAmount);
  const firstTax = fields.taxLines[0];
  if (!fields.taxMinor && firstTax) {
    const sum = fields.taxLines.reduce((acc, t) => acc + t.value.taxMinor, 0n);
    fields.taxMinor = { value: sum, confidence: firstTax.confidence * 0.9, source: firstTax.source };
  }

  readPayment(lines, f, fields);
  fields.lineItems = lineItemsOf(lines, f);

  const titleLines = lines.slice(0, 12);
  const credit = lines.find((l) => creditNoteWords.test(l.text));
  const invoice = titleLines.find((l) => invoiceWords.test(l.text));
  const typeLine = credit ?? invoice ?? lines[0];
  if (typeLine) {
    const value = credit ? 'credit_note' : invoice ? 'invoice' : 'receipt';
    fields.documentType = f.make(
      typeLine,
      { start: 0, end: typeLine.text.length },
      value,
      credit || invoice ? 0.8 : 0.6,
    );
  }
  if (credit) negateTotals(fields);
  return fields;
}

const abs = (v: bigint) => (v < 0n ? -v : v);

function negateTotals(fields: ExtractedFields): void {
  for (const key of ['totalMinor', 'amountDueMinor', 'netMinor', 'taxMinor'] as const) {
    const field = fields[key];
    if (field && field.value > 0n) fields[key] = { ...field, value: -field.value };
  }
  for (const t of fields.taxLines) {
    if (t.value.taxMinor > 0n) t.value.taxMinor = -t.value.taxMinor;
    if (t.value.taxableMinor !== null && t.value.taxableMinor > 0n)
      t.value.taxableMinor = -t.value.taxableMinor;
  }
}
