import { currencyExponent } from '../money.ts';
import type { ExtractedFields, Field, FieldSource } from '../types.ts';
import { currencyOf, printedWhole } from './currency.ts';
import { dateOf } from './dates.ts';
import { creditNoteWords, invoiceWords, labels } from './labels.ts';
import { lineItemsOf } from './line-items.ts';
import { merchantOf } from './merchant.ts';
import { readPayment } from './payment.ts';
import { periodOf } from './period.ts';
import { totalOf } from './totals.ts';
import { type AmountOptions, amountsIn, type Found } from './values.ts';

// Field heuristics over page texts (pdftotext -layout, or OCR readings). Each value keeps the
// span it was read from and a confidence that reflects the evidence behind it: a labelled value
// that other printed figures confirm (subtotal + tax, payments, line items) is near 1, a lone
// guess is low; OCR text scales every confidence down.

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
  constructor(readonly kind: TextKind) {}
  make<T>(line: TextLine, found: { start: number; end: number }, value: T, confidence: number): Field<T> {
    const source: FieldSource = {
      kind: this.kind,
      page: line.page,
      start: line.start + found.start,
      end: line.start + found.end,
    };
    const scaled = this.kind === 'ocr' ? confidence * 0.9 : confidence;
    return { value, confidence: Math.round(Math.min(0.99, scaled) * 100) / 100, source };
  }
}

export interface Labelled<T> {
  line: TextLine;
  found: Found<T>;
  sameLine: boolean;
}

/**
 * The value `read` finds after a label: on the same line, else below it. In layout text a label
 * heading a column ("Factuur datum" over "8-9-2022") has its value in the same columns of the
 * next line; OCR lines carry no columns, so there the whole next line is read.
 */
export function valueAfter<T>(
  lines: TextLine[],
  i: number,
  label: RegExpExecArray,
  read: (text: string) => Found<T> | undefined,
  kind: TextKind,
): Labelled<T> | undefined {
  const line = lines[i];
  if (!line) return undefined;
  const after = label.index + label[0].length;
  const hit = read(line.text.slice(after));
  if (hit) return { line, found: { ...hit, start: hit.start + after, end: hit.end + after }, sameLine: true };
  const next = lines[i + 1];
  if (!next || next.page !== line.page) return undefined;
  if (kind === 'text') {
    const from = Math.max(0, label.index - 12);
    const to = after + 16;
    const cell = read(next.text.slice(from, to));
    if (cell)
      return {
        line: next,
        found: { ...cell, start: cell.start + from, end: cell.end + from },
        sameLine: false,
      };
    return undefined;
  }
  const below = read(next.text);
  return below ? { line: next, found: below, sameLine: false } : undefined;
}

function labelled<T>(
  lines: TextLine[],
  label: RegExp,
  read: (text: string) => Found<T> | undefined,
  kind: TextKind,
  skip?: RegExp,
): Labelled<T> | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const m = label.exec(line.text);
    if (!m || (skip?.test(line.text) ?? false)) continue;
    const hit = valueAfter(lines, i, m, read, kind);
    if (hit) return hit;
  }
  return undefined;
}

const identifier = (text: string): Found<string> | undefined => {
  const m = /^[\s:#.]*([A-Za-z0-9][A-Za-z0-9\-/_.]*[A-Za-z0-9]|[A-Za-z0-9])/.exec(text);
  if (!m?.[1] || !/\d/.test(m[1])) return undefined;
  const start = m[0].length - m[1].length;
  return { value: m[1], start, end: m[0].length };
};

/**
 * OCR splits a capital from the rest of its word ("R echnungsbetrag"): joined again, the space
 * moved after the word so every offset still points into the OCR text. Letters that are words
 * on their own (A, I, O, Y) are left alone.
 */
function joinSplitCapitals(pages: string[]): string[] {
  return pages.map((page) => page.replace(/(?<![\p{L}])([B-HJ-NP-XZÄÖÜÉ]) (\p{Ll}{3,})/gu, '$1$2 '));
}

export function readText(pages: string[], kind: TextKind): ExtractedFields {
  const lines = linesOf(kind === 'ocr' ? joinSplitCapitals(pages) : pages);
  const f = new FieldMaker(kind);
  const fields: ExtractedFields = { taxLines: [], lineItems: [] };

  // Currency first: it decides the amounts' minor unit and US date order.
  fields.currency = currencyOf(lines, f);
  const currency = fields.currency?.value;
  const amountOptions: AmountOptions = {
    exponent: currencyExponent(currency),
    wholeUnits: currency !== undefined && printedWhole.has(currency),
    ocr: kind === 'ocr',
  };
  const lastAmount = (text: string) => amountsIn(text, amountOptions).at(-1);
  const pick = <T>(label: RegExp, read: (t: string) => Found<T> | undefined, skip?: RegExp) => {
    const hit = labelled(lines, label, read, kind, skip);
    return hit ? f.make(hit.line, hit.found, hit.found.value, hit.sameLine ? 0.9 : 0.75) : undefined;
  };

  fields.documentNumber = pick(labels.documentNumber, identifier);
  fields.orderNumber = pick(labels.orderNumber, identifier);
  const usOrder = currency === 'USD' || (currency === undefined && lines.some((l) => /\$\s?\d/.test(l.text)));
  const period = periodOf(lines, f, usOrder);
  fields.servicePeriod = period.field;
  const dates = dateOf(lines, f, usOrder, period.spans);
  fields.date = dates.date;
  fields.dueDate = dates.dueDate;
  fields.merchantTaxId = pick(labels.taxId, identifier);
  fields.merchant = merchantOf(lines, f);

  fields.netMinor = pick(labels.net, lastAmount);
  fields.tipMinor = pick(labels.tip, lastAmount);
  for (const line of lines) {
    const m = labels.tax.exec(line.text);
    if (!m || labels.net.test(line.text.slice(0, m.index))) continue;
    const after = m.index + m[0].length;
    const amounts = amountsIn(line.text.slice(after), amountOptions);
    const tax = amounts.at(-1);
    if (!tax) continue;
    const base = amounts.length > 1 ? amounts.at(-2) : undefined;
    const rate = (m[2] ?? '').replace(',', '.').replace(/\.0+$|(\.\d*?)0+$/, '$1');
    fields.taxLines.push(
      f.make(
        line,
        { start: m.index, end: after + tax.end },
        { rate, taxableMinor: base?.value ?? null, taxMinor: tax.value, category: null },
        0.8,
      ),
    );
  }
  fields.taxMinor = pick(labels.taxTotal, lastAmount);
  const firstTax = fields.taxLines[0];
  if (!fields.taxMinor && firstTax) {
    const seen = new Set<string>();
    let sum = 0n;
    // Two OCR readings of one page repeat the same tax lines: each line counts once.
    for (const t of fields.taxLines) {
      const key = `${t.value.rate}:${t.value.taxMinor}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sum += t.value.taxMinor;
    }
    fields.taxMinor = { value: sum, confidence: firstTax.confidence * 0.9, source: firstTax.source };
  }

  readPayment(lines, f, fields);
  fields.lineItems = lineItemsOf(lines, f, amountOptions);

  const totals = totalOf(lines, f, fields, amountOptions);
  fields.totalMinor = totals.total;
  fields.amountDueMinor = totals.amountDue ?? totals.total;

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
