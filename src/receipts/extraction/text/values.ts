// Amounts and dates as printed on receipts in English, German, French, Dutch, Spanish, Italian
// and Portuguese.

export interface Found<T> {
  value: T;
  /** Offsets within the line the value was found in. */
  start: number;
  end: number;
}

export interface AmountFound extends Found<bigint> {
  /** A currency sign or code touches the number ("$4", "Rs 1939", "9,50 €"). */
  marked: boolean;
}

export interface AmountOptions {
  /** Digits of the minor unit (ISO 4217 exponent of the document's currency), default 2. */
  exponent?: number;
  /** The currency is printed without minor units ("¥4,500", "IDR 174,600"). */
  wholeUnits?: boolean;
  /** Accept whole numbers with thousands groups ("174,600") as amounts (a total line). */
  groupedWhole?: boolean;
  /** OCR text: "9, 50€" (a space after the decimal mark) is one amount. */
  ocr?: boolean;
}

// A number token: digits with separators inside (never two separators in a row), an optional
// minus before or after. A single ASCII space is kept inside only when it can be a thousands
// separator ("1 234,56"); the parse below refuses it when the groups do not fit, and then the
// pieces are read separately, so two columns ("104.902 104.92") are never glued together.
const token = /(?<![\d.,'])(-\s?)?\d(?:[.,'\u00a0\u202f ]?\d)*(-(?!\d))?/g;
const marker = /(?:[$€£¥₹]|\b(?:[A-Z]{3}|Rs\.?|Rp\.?|EURO?S?|lei|zł|Kč)\b)\s?$/u;
const markerAfter = /^\s?(?:[$€£¥₹]|(?:[A-Z]{3}|EURO?S?|lei|zł|Kč)\b)/u;

/** Reads one number string as minor units, or undefined when it is not an amount. */
function parseNumber(raw: string, opts: AmountOptions, marked: boolean): bigint | undefined {
  const exponent = opts.exponent ?? 2;
  const s = raw.replace(/[\u00a0\u202f]/g, ' ');
  // Decimal part: the last "." or "," followed by exactly `exponent` digits.
  let whole = s;
  let fraction = '';
  const dec = /[.,](\d+)$/.exec(s);
  if (
    dec &&
    exponent > 0 &&
    dec[1]?.length === exponent &&
    !(opts.wholeUnits && /^\d{1,3}([.,])\d{3}$/.test(s))
  ) {
    whole = s.slice(0, dec.index);
    fraction = dec[1];
  } else if (dec && dec[1]?.length !== 3) {
    return undefined; // "12.5" or "1.2345": not money in this currency
  }
  let digits: string;
  if (/^\d+$/.test(whole)) digits = whole;
  else {
    // Thousands groups: one separator throughout, unlike the decimal mark, groups of three.
    const m = /^(\d{1,3})((?:([.,' ])\d{3})(?:\3\d{3})*)$/.exec(whole);
    if (!m || (fraction !== '' && m[3] === s[s.length - exponent - 1])) return undefined;
    if (m[3] === ' ' && fraction === '') return undefined;
    digits = whole.replace(/[.,' ]/g, '');
  }
  if (fraction === '') {
    const grouped = digits !== whole;
    const allowed = opts.wholeUnits || marked || (grouped && opts.groupedWhole) || exponent === 0;
    if (!allowed) return undefined;
    return BigInt(digits) * 10n ** BigInt(exponent);
  }
  return BigInt(`${digits}${fraction}`);
}

export function amountsIn(line: string, opts: AmountOptions = {}): AmountFound[] {
  const text = opts.ocr ? line.replace(/(\d[.,]) (\d{2})(?!\d)/g, '$1$2 ') : line;
  const found: AmountFound[] = [];
  for (const m of text.matchAll(token)) {
    const start = m.index ?? 0;
    const body = m[0].replace(/^-\s?/, '').replace(/-$/, '');
    const negative = m[1] !== undefined || m[2] !== undefined;
    const bodyStart = start + (m[1]?.length ?? 0);
    const pieces = readPieces(text, body, bodyStart, opts);
    for (const p of pieces) found.push(negative && pieces.length === 1 ? { ...p, value: -p.value } : p);
    if (pieces.length === 1 && negative) {
      const only = found[found.length - 1];
      if (only) {
        only.start = start;
        only.end = start + m[0].length;
      }
    }
  }
  return found;
}

/** The token as one amount, else each space-separated piece on its own. */
function readPieces(text: string, body: string, at: number, opts: AmountOptions): AmountFound[] {
  const one = readOne(text, body, at, opts);
  if (one) return [one];
  if (!body.includes(' ')) return [];
  const out: AmountFound[] = [];
  let offset = 0;
  for (const piece of body.split(' ')) {
    const hit = readOne(text, piece, at + offset, opts);
    if (hit) out.push(hit);
    offset += piece.length + 1;
  }
  return out;
}

function readOne(text: string, body: string, at: number, opts: AmountOptions): AmountFound | undefined {
  const end = at + body.length;
  const marked =
    marker.test(text.slice(Math.max(0, at - 5), at)) || markerAfter.test(text.slice(end, end + 5));
  const value = parseNumber(body, opts, marked);
  if (value === undefined) return undefined;
  // A percentage or a quantity unit right after is not money.
  if (/^\s?(%|kg\b|x\b|st(ü|u)?ck|pcs\b)/iu.test(text.slice(end, end + 6))) return undefined;
  return { value, start: at, end, marked };
}

const monthList: [number, string[]][] = [
  [
    1,
    [
      'jan',
      'january',
      'januar',
      'janvier',
      'jän',
      'januari',
      'enero',
      'ene',
      'gennaio',
      'gen',
      'janeiro',
      'janv',
    ],
  ],
  [
    2,
    [
      'feb',
      'february',
      'februar',
      'février',
      'fevrier',
      'févr',
      'fevr',
      'februari',
      'febrero',
      'febbraio',
      'fevereiro',
      'fev',
    ],
  ],
  [3, ['mar', 'march', 'märz', 'maerz', 'marz', 'mars', 'maart', 'mrt', 'marzo', 'março', 'marco']],
  [4, ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile']],
  [5, ['may', 'mai', 'mei', 'mayo', 'maggio', 'mag', 'maio']],
  [6, ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho']],
  [7, ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho']],
  [8, ['aug', 'august', 'août', 'aout', 'augustus', 'agosto', 'ago']],
  [9, ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro']],
  [10, ['oct', 'october', 'okt', 'oktober', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out']],
  [11, ['nov', 'november', 'novembre', 'noviembre', 'novembro']],
  [
    12,
    [
      'dec',
      'december',
      'dez',
      'dezember',
      'déc',
      'décembre',
      'decembre',
      'diciembre',
      'dic',
      'dicembre',
      'dezembro',
    ],
  ],
];
const months = new Map<string, number>(
  monthList.flatMap(([n, names]) => names.map((name) => [name, n] as const)),
);
const monthNames = [...months.keys()].sort((a, b) => b.length - a.length).join('|');
const monthOf = (name: string | undefined) => months.get((name ?? '').toLowerCase().replace(/\.$/, '')) ?? 0;

/** Years a receipt can carry: the plausibility window (a misread "2822" is not a date). */
function plausibleYear(year: number, now = new Date()): boolean {
  return year >= 1990 && year <= now.getUTCFullYear() + 1;
}

function fullYear(year: number): number {
  if (year >= 100) return year;
  const century = new Date().getUTCFullYear() % 100;
  return year <= century + 1 ? 2000 + year : 1900 + year;
}

function iso(year: number, month: number, day: number): string | undefined {
  const y = fullYear(year);
  if (!plausibleYear(y)) return undefined;
  const d = new Date(Date.UTC(y, month - 1, day));
  if (d.getUTCFullYear() !== y || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Day-first unless the locale is month-first; an impossible day or month decides. */
function dayMonth(a: number, b: number, year: number, usOrder: boolean): string | undefined {
  const monthFirst = a > 12 ? false : b > 12 ? true : usOrder;
  return monthFirst ? iso(year, a, b) : iso(year, b, a);
}

const datePatterns: { re: RegExp; read: (m: RegExpMatchArray, usOrder: boolean) => string | undefined }[] = [
  {
    re: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g,
    read: (m) => iso(Number(m[1]), Number(m[2]), Number(m[3])),
  },
  {
    re: /(?<!\d)(\d{4})年\s?(\d{1,2})月\s?(\d{1,2})日/g,
    read: (m) => iso(Number(m[1]), Number(m[2]), Number(m[3])),
  },
  {
    // Dots are day-first everywhere they are used (de, nl, fr, it...).
    re: /(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4}|\d{2})(?![\d.]\d)/g,
    read: (m) => iso(Number(m[3]), Number(m[2]), Number(m[1])),
  },
  {
    // Slashes and dashes: day-first in Europe, month-first in the US.
    re: /(?<![\d/-])(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/-]|:\d)/g,
    read: (m, usOrder) => dayMonth(Number(m[1]), Number(m[3]), Number(m[4]), usOrder),
  },
  {
    // "1 April 2024", "15. März 2024", "1er août 2024", "15 de marzo de 2024", "27Mar21", "02-Jan-2020".
    re: new RegExp(
      `(?<![\\d\\p{L}])(\\d{1,2})(?:\\.|er|º|st|nd|rd|th)?[\\s-]*(?:de\\s+)?(${monthNames})\\.?[\\s,-]*(?:de\\s+)?('?\\d{4}|\\d{2})(?![\\d:])`,
      'giu',
    ),
    read: (m) => iso(Number((m[3] ?? '').replace("'", '')), monthOf(m[2]), Number(m[1])),
  },
  {
    // "October 3, 2024", "August 3 , 2014", "AUG 19, 2024".
    re: new RegExp(
      `(?<![\\p{L}])(${monthNames})\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`,
      'giu',
    ),
    read: (m) => iso(Number(m[3]), monthOf(m[1]), Number(m[2])),
  },
];

export function datesIn(line: string, usOrder: boolean): Found<string>[] {
  const found: Found<string>[] = [];
  for (const { re, read } of datePatterns) {
    for (const m of line.matchAll(re)) {
      const value = read(m, usOrder);
      const start = m.index ?? 0;
      if (value && !found.some((f) => start < f.end && f.start < start + m[0].length)) {
        found.push({ value, start, end: start + m[0].length });
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
