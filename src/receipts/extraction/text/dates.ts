import type { Field } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';
import { labels } from './labels.ts';
import { datesIn, type Found } from './values.ts';

// The document date among every date printed: a date under an issue-date label ("Invoice date",
// "Factuurdatum", "Fecha", "Data") wins, then an order date, then an unlabelled date; dates
// under due, expiry, debit or period labels ("Date limite de paiement", "Vervaldatum",
// "Expiration Date") are never the document date. In layout text a label heading a column
// labels the date below it.

const orderDate =
  /(?<![\p{L}])(order\s*date|orderdatum|bestelldatum|date\s*de\s*commande|fecha\s*(?:del\s*)?pedido|data\s*(?:dell'?\s*)?ordine|check[\s-]*out|departure|abreise|d[ée]part)/iu;

/** Labels that name the document's own date, stronger than a bare "Date". */
const specificIssue =
  /(?<![\p{L}])(invoice|receipt|rechnungs|beleg|factuur|facture|factura|fattura|fatura|issue|emission|émission|emisi[oó]n|emissione|emiss[aã]o|purchase|transaction)\w*\s*(date|datum|fecha|data)?/iu;

interface Candidate {
  line: TextLine;
  found: Found<string>;
  weight: number;
}

/** The label closest before `at` on the line (or heading the same columns on the line above). */
function labelBefore(
  lines: TextLine[],
  i: number,
  at: number,
  kind: 'text' | 'ocr',
): 'issue' | 'order' | 'due' | undefined {
  const line = lines[i];
  if (!line) return undefined;
  const before = line.text.slice(Math.max(0, at - 60), at);
  const kindAt = classify(before);
  if (kindAt) return kindAt;
  const above = lines[i - 1];
  if (!above || above.page !== line.page) return undefined;
  // A heading row: the label's columns overlap the date's (layout text), or OCR put it just above.
  const window = kind === 'text' ? above.text.slice(Math.max(0, at - 12), at + 16) : '';
  if (window === '') return undefined;
  return classify(window);
}

/**
 * The kind of the last date label in `text`. A due or order label swallows the generic word
 * right after it ("Due date", "Expiration Date/Time", "Order date" are not issue dates).
 */
export function classify(text: string): 'issue' | 'order' | 'due' | undefined {
  const spans = (re: RegExp, kind: 'issue' | 'order' | 'due') =>
    [...text.matchAll(new RegExp(re.source, 'giu'))].map((m) => ({
      kind,
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    }));
  const strong = [...spans(labels.dueDate, 'due'), ...spans(orderDate, 'order')];
  const issue = spans(labels.date, 'issue').filter(
    (s) => !strong.some((d) => s.start >= d.start && s.start <= d.end + 3),
  );
  const last = [...strong, ...issue].sort((a, b) => a.end - b.end).at(-1);
  return last?.kind;
}

export function dateOf(
  lines: TextLine[],
  f: FieldMaker,
  usOrder: boolean,
  /** Spans of a service period (period.ts): its dates are neither the document's nor due dates. */
  skip: ReadonlyArray<{ line: TextLine; start: number; end: number }> = [],
): { date?: Field<string>; dueDate?: Field<string> } {
  const candidates: Candidate[] = [];
  let dueDate: Field<string> | undefined;
  lines.forEach((line, i) => {
    for (const found of datesIn(line.text, usOrder)) {
      if (skip.some((s) => s.line === line && found.start < s.end && s.start < found.end)) continue;
      const label = labelBefore(lines, i, found.start, f.kind);
      if (label === 'due') {
        dueDate ??= f.make(line, found, found.value, 0.85);
        continue;
      }
      // A date in a sentence about a due date or a payment ("AMOUNT DUE ON August 3") is not the issue date.
      if (!label && labels.dueDate.test(line.text)) {
        dueDate ??= f.make(line, found, found.value, 0.6);
        continue;
      }
      const specific =
        label === 'issue' && specificIssue.test(line.text.slice(Math.max(0, found.start - 40), found.start));
      candidates.push({
        line,
        found,
        weight: label === 'issue' ? (specific ? 3.5 : 3) : label === 'order' ? 2 : 1,
      });
    }
  });
  if (candidates.length === 0) return { dueDate };
  const top = Math.max(...candidates.map((c) => c.weight));
  const best = candidates.find((c) => c.weight === top) as Candidate;
  const distinct = new Set(candidates.map((c) => c.found.value));
  const agreeing = candidates.filter((c) => c.found.value === best.found.value).length;
  // Another date under a label as strong (an OCR-garbled "Order Date" reads as "Date"): a guess.
  const contested = candidates.some((c) => c.found.value !== best.found.value && c.weight >= top - 0.5);
  let confidence: number;
  if (contested) confidence = 0.6;
  else if (top >= 3) confidence = distinct.size === 1 || agreeing > 1 ? 0.95 : 0.9;
  else if (top === 2) confidence = 0.8;
  else confidence = distinct.size === 1 ? 0.85 : 0.55;
  return { date: f.make(best.line, best.found, best.found.value, confidence), dueDate };
}
