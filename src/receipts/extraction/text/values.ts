// Amounts and dates as printed on receipts in English, German and French.

export interface Found<T> {
  value: T;
  /** Offsets within the line the value was found in. */
  start: number;
  end: number;
}

// Thousands groups may use comma, dot, apostrophe, space or no-break space; the decimal mark is
// "." or "," followed by exactly two digits. A leading minus or a trailing minus marks a credit.
const amountPattern =
  /(?<![\d.,])(-\s?)?((?:\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+)|\d+)[.,](\d{2})(?![\d%])(-)?/g;

export function amountsIn(line: string): Found<bigint>[] {
  const found: Found<bigint>[] = [];
  for (const m of line.matchAll(amountPattern)) {
    const whole = (m[2] ?? '0').replace(/[.,'\u00a0\u202f ]/g, '');
    const minor = BigInt(`${whole}${m[3] ?? '00'}`);
    const negative = m[1] !== undefined || m[4] !== undefined;
    const start = m.index ?? 0;
    found.push({ value: negative ? -minor : minor, start, end: start + m[0].length });
  }
  return found;
}

const months: Record<string, number> = {
  jan: 1,
  january: 1,
  januar: 1,
  janvier: 1,
  jän: 1,
  feb: 2,
  february: 2,
  februar: 2,
  février: 2,
  fevrier: 2,
  févr: 2,
  mar: 3,
  march: 3,
  märz: 3,
  maerz: 3,
  mars: 3,
  apr: 4,
  april: 4,
  avril: 4,
  avr: 4,
  may: 5,
  mai: 5,
  jun: 6,
  june: 6,
  juni: 6,
  juin: 6,
  jul: 7,
  july: 7,
  juli: 7,
  juillet: 7,
  juil: 7,
  aug: 8,
  august: 8,
  août: 8,
  aout: 8,
  sep: 9,
  sept: 9,
  september: 9,
  septembre: 9,
  oct: 10,
  october: 10,
  okt: 10,
  oktober: 10,
  octobre: 10,
  nov: 11,
  november: 11,
  novembre: 11,
  dec: 12,
  december: 12,
  dez: 12,
  dezember: 12,
  déc: 12,
  décembre: 12,
  decembre: 12,
};
const monthNames = Object.keys(months)
  .sort((a, b) => b.length - a.length)
  .join('|');

function iso(year: number, month: number, day: number): string | undefined {
  const y = year < 100 ? 2000 + year : year;
  const d = new Date(Date.UTC(y, month - 1, day));
  if (d.getUTCFullYear() !== y || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const datePatterns: { re: RegExp; read: (m: RegExpMatchArray, usOrder: boolean) => string | undefined }[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, read: (m) => iso(Number(m[1]), Number(m[2]), Number(m[3])) },
  {
    re: /\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\b/g,
    read: (m) => iso(Number(m[3]), Number(m[2]), Number(m[1])),
  },
  {
    // Slashes are day-first in Europe and month-first in the US; an impossible day decides, else the locale.
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g,
    read: (m, usOrder) => {
      const a = Number(m[1]);
      const b = Number(m[2]);
      const monthFirst = a > 12 ? false : b > 12 ? true : usOrder;
      return monthFirst ? iso(Number(m[3]), a, b) : iso(Number(m[3]), b, a);
    },
  },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:\\.|er)?\\s+(${monthNames})\\.?\\s+(\\d{4})\\b`, 'giu'),
    read: (m) => iso(Number(m[3]), months[(m[2] ?? '').toLowerCase()] ?? 0, Number(m[1])),
  },
  {
    re: new RegExp(`\\b(${monthNames})\\.?\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'giu'),
    read: (m) => iso(Number(m[3]), months[(m[1] ?? '').toLowerCase()] ?? 0, Number(m[2])),
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
