import type { Field } from '../types.ts';
import type { FieldMaker, TextLine } from './heuristics.ts';

// The document's currency from everything that names one: ISO codes, symbols next to amounts,
// "EURO", "Rs", "Rp", "lei"; then the country for a bare `$` (CAD, MXN, AUD, NZD... or USD on US
// addresses), and VAT IDs of euro countries when nothing is printed. Every hit is a vote; the
// confidence says how clear the winner is. A `$` with no country is left for review.

const codes =
  /(?<![A-Za-z])(EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|HUF|RON|BGN|HRK|RSD|TRY|RUB|UAH|CAD|AUD|NZD|MXN|BRL|ARS|CLP|COP|PEN|JPY|CNY|RMB|HKD|SGD|KRW|INR|IDR|MYR|THB|PHP|VND|ZAR|AED|SAR|ILS|EGP|NGN|KES|MAD|TND)(?![A-Za-z])/gu;

const words: [RegExp, string][] = [
  [/(?<![\p{L}])euros?(?![\p{L}])/giu, 'EUR'],
  [/€/gu, 'EUR'],
  [/£/gu, 'GBP'],
  [/₹/gu, 'INR'],
  [/(?<![\p{L}])Rs\.?\s?(?=-?\d)/gu, 'INR'],
  [/(?<![\p{L}])Rp\.?\s?(?=\d)/gu, 'IDR'],
  [/(?<![\p{L}])lei(?![\p{L}])/giu, 'RON'],
  [/(?<![\p{L}])z[łl](?![\p{L}])/giu, 'PLN'],
  [/(?<![\p{L}])K[čc](?![\p{L}])/gu, 'CZK'],
  [/[¥円]/gu, 'JPY'],
  [/(?<![\p{L}])(?:US\s?\$|US\s*dollars?)/giu, 'USD'],
];

/** A `$` only counts next to an amount: "$4.11", "4.11 $" (never a misread inside a phone number). */
const dollar =
  /(?:(?<![\p{L}\d])\$\s?\d[\d.,]*[.,]\d{2}(?!\d)|(?<![\p{L}\d])\$\s?\d{1,3}(?:,\d{3})*(?![\d.,\s]*\d)|\d[.,]\d{2}\s?\$)/gu;

const dollarCountries: [RegExp, string][] = [
  [
    /(?<![\p{L}])(canada|ontario|qu[ée]bec|british\s*columbia|alberta|GST\/HST|HST|TPS|TVQ|QST)(?![\p{L}])|\b(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/u,
    'CAD',
  ],
  [/(?<![\p{L}])(m[ée]xico|RFC|CDMX|M\.N\.|pesos?)(?![\p{L}])/iu, 'MXN'],
  [/(?<![\p{L}])(australia|ABN|NSW|VIC|QLD)(?![\p{L}])/u, 'AUD'],
  [/(?<![\p{L}])(new\s*zealand|aotearoa)(?![\p{L}])/iu, 'NZD'],
  [/(?<![\p{L}])(singapore|GST\s*reg)(?![\p{L}])/iu, 'SGD'],
  [/(?<![\p{L}])(hong\s*kong)(?![\p{L}])/iu, 'HKD'],
  [
    /(?<![\p{L}])(USA|U\.S\.A\.|United\s*States|US\s*Dollars?|sales\s*tax)(?![\p{L}])|\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC),?\s+\d{5}(?:-\d{4})?\b/u,
    'USD',
  ],
];

/** VAT identifiers of euro-area countries ("DE812706034", "NL810433941B01", "FR 12 345..."). */
const euroVatId =
  /(?<![A-Z])(?:DE\s?\d{9}|NL\s?\d{9}\s?B\d{2}|FR\s?[0-9A-Z]{2}\s?\d{9}|BE\s?0?\d{9,10}|AT\s?U\d{8}|IT\s?\d{11}|ES\s?[0-9A-Z]\d{7}[0-9A-Z]|PT\s?\d{9}|IE\s?\d{7}[A-Z]{1,2}|FI\s?\d{8}|LU\s?\d{8})(?![\dA-Z])/u;

interface Vote {
  currency: string;
  line: TextLine;
  start: number;
  end: number;
  strength: number;
}

export function currencyOf(lines: TextLine[], f: FieldMaker): Field<string> | undefined {
  const votes: Vote[] = [];
  const all = lines.map((l) => l.text).join('\n');
  for (const line of lines) {
    // OCR noise spells codes and signs too ("PEN", "¥"): in OCR text a vote counts fully only on
    // a line that also carries an amount.
    const strength = f.kind === 'ocr' && !/\d[.,]\s?\d{2}(?!\d)|\d{1,3}[.,]\d{3}/.test(line.text) ? 0.3 : 1;
    for (const m of line.text.matchAll(codes)) {
      const code = m[1] === 'RMB' ? 'CNY' : (m[1] ?? '');
      votes.push({
        currency: code,
        line,
        start: m.index ?? 0,
        end: (m.index ?? 0) + m[0].length,
        strength,
      });
    }
    for (const [re, currency] of words) {
      for (const m of line.text.matchAll(re)) {
        votes.push({ currency, line, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, strength });
      }
    }
  }
  const dollars = lines.flatMap((line) =>
    [...line.text.matchAll(dollar)].map((m) => ({
      line,
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    })),
  );
  if (dollars.length > 0) {
    const country = dollarCountries.find(([re]) => re.test(all))?.[1];
    for (const d of dollars) votes.push({ currency: country ?? 'USD', ...d, strength: country ? 1 : 0.4 });
  }
  if (votes.length === 0) {
    // Nothing printed: a euro-area VAT ID says EUR, but only as a guess for review.
    for (const line of lines) {
      const m = euroVatId.exec(line.text);
      if (m) return f.make(line, { start: m.index, end: m.index + m[0].length }, 'EUR', 0.55);
    }
    return undefined;
  }
  const tally = new Map<string, number>();
  for (const v of votes) tally.set(v.currency, (tally.get(v.currency) ?? 0) + v.strength);
  const ranked = [...tally.entries()].sort((a, b) => b[1] - a[1]);
  const [winner, score] = ranked[0] ?? ['', 0];
  const runnerUp = ranked[1]?.[1] ?? 0;
  // One code in OCR noise (0.3) and nothing else: no currency rather than a wrong one; a bare
  // `$` (0.4) stays, for review.
  if (score < 0.35) return undefined;
  const first = votes.find((v) => v.currency === winner);
  if (!first) return undefined;
  // A code or sign beside an amount is sure (OCR noise rarely spells another valid one there);
  // named twice, surer; a rival currency three times weaker lowers it, a closer one makes a guess.
  let confidence = score >= 2 ? 0.95 : score >= 1 ? 0.9 : 0.5;
  if (runnerUp > 0) confidence = runnerUp * 3 <= score ? confidence - 0.1 : 0.5;
  return f.make(first.line, { start: first.start, end: first.end }, winner, confidence);
}

/** Currencies customarily printed without minor units (even where ISO 4217 has them). */
export const printedWhole = new Set(['JPY', 'KRW', 'IDR', 'VND', 'CLP', 'COP', 'HUF', 'ISK', 'PYG', 'UGX']);
