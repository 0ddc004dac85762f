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
] as const;

/** Parses the date part of `value` (a time after a space or `T` is ignored) with a format like `dd.MM.yyyy`. */
export function parseDate(value: string, format: string): string | null {
  const token = value.trim().split(/[ T]/)[0] ?? '';
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
    else day = n;
  });
  return isoDate(year, month, day);
}

/** Formats seen so far, compiled once (a file parses every row with the same one). */
const compiled = new Map<string, { re: RegExp; order: Array<'y' | 'M' | 'd'> }>();

function compile(format: string): { re: RegExp; order: Array<'y' | 'M' | 'd'> } {
  const order: Array<'y' | 'M' | 'd'> = [];
  let pattern = '';
  const re = /yyyy|yy|MM|M|dd|d|[^yMd]+/g;
  for (let m = re.exec(format); m !== null; m = re.exec(format)) {
    const part = m[0];
    if (part === 'yyyy') pattern += '(\\d{4})';
    else if (part === 'yy') pattern += '(\\d{2})';
    else if (part === 'MM' || part === 'dd')
      pattern += format.includes('/') || format.includes('.') ? '(\\d{1,2})' : '(\\d{2})';
    else if (part === 'M' || part === 'd') pattern += '(\\d{1,2})';
    else pattern += part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (part.startsWith('y')) order.push('y');
    else if (part.startsWith('M')) order.push('M');
    else if (part.startsWith('d')) order.push('d');
  }
  return { re: new RegExp(`^${pattern}$`), order };
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
