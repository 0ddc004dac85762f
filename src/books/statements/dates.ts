/** Calendar dates as banks write them -> ISO `YYYY-MM-DD`. */

/** POSIX strptime's pivot: 69-99 are 19xx, 00-68 are 20xx. */
export function expandYear(yy: number): number {
  return yy >= 69 ? 1900 + yy : 2000 + yy;
}

export function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2199) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `YYYYMMDD...` (OFX, with time and zone after it) or `YYYY-MM-DD...` (XML, with time or zone). */
export function compactOrIsoDate(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(text.trim());
  if (m === null) return null;
  return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

export const DATE_FORMATS = [
  'yyyy-MM-dd',
  'dd.MM.yyyy',
  'dd.MM.yy',
  'dd/MM/yyyy',
  'MM/dd/yyyy',
  'dd/MM/yy',
  'MM/dd/yy',
  'dd-MM-yyyy',
  'MM-dd-yyyy',
  'yyyy/MM/dd',
  'yyyyMMdd',
  // Month names (card and UK/IE exports): 28-Mar-2020, 28 Mar 2020, 28-MAR-20, Mar 28, 2020.
  'dd-MMM-yyyy',
  'dd-MMM-yy',
  'dd MMM yyyy',
  'dd MMM yy',
  'dd/MMM/yyyy',
  'dd.MMM.yyyy',
  'MMM dd, yyyy',
  'MMM dd yyyy',
] as const;

/**
 * Month names and abbreviations (accents and a trailing dot dropped, lowercase) in the languages of
 * our users' banks: English, German, French, Dutch, Spanish, Italian, Portuguese.
 */
const MONTH_NAMES: ReadonlyArray<readonly string[]> = [
  [
    'jan',
    'january',
    'januar',
    'janv',
    'janvier',
    'januari',
    'ene',
    'enero',
    'gen',
    'gennaio',
    'janeiro',
    'jänner',
    'janner',
  ],
  ['feb', 'february', 'februar', 'fevr', 'fevrier', 'februari', 'febrero', 'febbraio', 'fev', 'fevereiro'],
  ['mar', 'march', 'marz', 'mrz', 'mars', 'maart', 'mrt', 'marzo', 'marco'],
  ['apr', 'april', 'avr', 'avril', 'abr', 'abril', 'aprile'],
  ['may', 'mai', 'mei', 'mayo', 'mag', 'maggio', 'maio'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giu', 'giugno', 'junho'],
  ['jul', 'july', 'juli', 'juil', 'juillet', 'julio', 'lug', 'luglio', 'julho'],
  ['aug', 'august', 'aout', 'augustus', 'ago', 'agosto'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'set', 'settembre', 'setembro'],
  ['oct', 'october', 'okt', 'oktober', 'octobre', 'octubre', 'ott', 'ottobre', 'out', 'outubro'],
  ['nov', 'november', 'novembre', 'noviembre', 'novembro'],
  ['dec', 'december', 'dez', 'dezember', 'decembre', 'dic', 'diciembre', 'dicembre', 'dezembro'],
];
const MONTH_BY_NAME = new Map(MONTH_NAMES.flatMap((names, i) => names.map((n) => [n, i + 1] as const)));

/** 1-12 for a month name or abbreviation (`Mar`, `MÄRZ`, `févr.`), 0 otherwise. */
export function monthNumber(text: string): number {
  const key = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return MONTH_BY_NAME.get(key) ?? 0;
}

/** Parses the date part of `value` (a time after a space or `T` is ignored) with a format like `dd.MM.yyyy`. */
export function parseDate(value: string, format: string): string | null {
  // A time after the date is ignored: after a space (unless the format has spaces) or a `T` + digit.
  const trimmed = value.trim();
  const token = format.includes(' ')
    ? trimmed.replace(/\s+\d{1,2}:\d{2}.*$/, '')
    : (trimmed.split(/\s|T(?=\d)/)[0] ?? '');
  let c = compiled.get(format);
  if (c === undefined) {
    c = compile(format);
    // Formats come from mappings too: keep the cache small whatever callers send.
    if (compiled.size > 64) compiled.clear();
    compiled.set(format, c);
  }
  const m = c.re.exec(token);
  if (m === null) return null;
  let year = 0;
  let month = 0;
  let day = 0;
  c.order.forEach((kind, i) => {
    const text = m[i + 1] ?? '';
    const n = Number(text);
    if (kind === 'y') year = text.length === 2 ? expandYear(n) : n;
    else if (kind === 'M') month = n;
    else if (kind === 'N') month = monthNumber(text);
    else day = n;
  });
  return isoDate(year, month, day);
}

/** Formats seen so far, compiled once (a file parses every row with the same one). */
const compiled = new Map<string, { re: RegExp; order: Array<'y' | 'M' | 'N' | 'd'> }>();

function compile(format: string): { re: RegExp; order: Array<'y' | 'M' | 'N' | 'd'> } {
  const order: Array<'y' | 'M' | 'N' | 'd'> = [];
  let pattern = '';
  const re = /yyyy|yy|MMM|MM|M|dd|d|[^yMd]+/g;
  for (let m = re.exec(format); m !== null; m = re.exec(format)) {
    const part = m[0];
    if (part === 'yyyy') pattern += '(\\d{4})';
    else if (part === 'yy') pattern += '(\\d{2})';
    else if (part === 'MMM') pattern += '([A-Za-z\\u00c0-\\u017f]{3,9}\\.?)';
    else if (part === 'MM' || part === 'dd') pattern += /[/. ]|MMM/.test(format) ? '(\\d{1,2})' : '(\\d{2})';
    else if (part === 'M' || part === 'd') pattern += '(\\d{1,2})';
    else pattern += part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (part.startsWith('y')) order.push('y');
    else if (part === 'MMM') order.push('N');
    else if (part.startsWith('M')) order.push('M');
    else if (part.startsWith('d')) order.push('d');
  }
  return { re: new RegExp(`^${pattern}$`, 'i'), order };
}

/**
 * The format most samples parse with (a broken cell must not hide the format of the others; it is
 * rejected later with its line). Day-first and month-first both fit when no day is over 12: then
 * month-first only for USD accounts (the US convention), day-first otherwise.
 */
export function detectDateFormat(samples: string[], currency: string): string | null {
  const scored = DATE_FORMATS.map((f) => ({ f, n: samples.filter((s) => parseDate(s, f) !== null).length }));
  const best = Math.max(0, ...scored.map((s) => s.n));
  if (best === 0) return null;
  const fitting = scored.filter((s) => s.n === best).map((s) => s.f);
  const monthFirst = fitting.find((f) => f.startsWith('MM'));
  const dayFirst = fitting.find((f) => f.startsWith('dd'));
  if (monthFirst !== undefined && dayFirst !== undefined) return currency === 'USD' ? monthFirst : dayFirst;
  return fitting[0] ?? null;
}
