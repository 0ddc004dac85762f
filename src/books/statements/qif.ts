import { expandYear, isoDate } from './dates.ts';
import { type DecimalSeparator, parseAmount } from './money.ts';
import { fold, joinDistinct, lines } from './text.ts';
import type { StatementItem } from './types.ts';

/** Account types whose records are transactions of the account; Invst, Cat, Class, Security... are skipped. */
const READ = new Set(['bank', 'ccard', 'cash', 'oth a', 'oth l']);

type DateOrder = 'MDY' | 'DMY';

/**
 * The QIF date rule: all D lines of the file are looked at first. A first number over 12 means
 * day-first, a second number over 12 means month-first; a file where neither shows is month-first
 * (Quicken's US default). `'` before the year (`2/10'2020`, `1/10' 5`) marks the 2000s; two-digit
 * years otherwise follow the POSIX pivot (69-99 -> 19xx).
 */
export function qifDateOrder(text: string): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const m of text.matchAll(/^D\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})/gm)) {
    if (Number(m[1]) > 12) dayFirst++;
    if (Number(m[2]) > 12) monthFirst++;
  }
  return dayFirst > monthFirst ? 'DMY' : 'MDY';
}

export function qifDate(raw: string, order: DateOrder): string | null {
  const t = raw.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso !== null) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = /^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*(['/.-])\s*(\d{1,4})$/.exec(t);
  if (m === null) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  const yearText = m[4] ?? '';
  const year =
    yearText.length === 4
      ? Number(yearText)
      : m[3] === "'"
        ? 2000 + Number(yearText)
        : expandYear(Number(yearText));
  return order === 'MDY' ? isoDate(year, a, b) : isoDate(year, b, a);
}

/** QIF amounts: `-1,000.00` usually; a European `1.000,00` is read by where the last separator is. */
function qifAmount(raw: string, currency: string): ReturnType<typeof parseAmount> {
  const t = raw.trim();
  const lastComma = t.lastIndexOf(',');
  const lastDot = t.lastIndexOf('.');
  const decimal: DecimalSeparator = lastComma > lastDot && t.length - lastComma - 1 !== 3 ? ',' : '.';
  return parseAmount(t, decimal, currency);
}

interface Draft {
  lineNumber: number;
  fields: Map<string, string>;
  splitTotal: bigint | null;
  inSplit: boolean;
  bad: string | null;
}

/**
 * QIF: `!Type:` sections, records of one-letter fields ended by `^`. A split transaction (S/E/$
 * lines) is one line with its total T. The Opening Balance record Quicken writes first (payee
 * `Opening Balance`, category `[account]`) sets a balance and is not a transaction: it is skipped.
 */
export async function* parseQif(text: string, currency: string): AsyncGenerator<StatementItem> {
  const order = qifDateOrder(text);
  let reading = false;
  let account: string | null = null;
  let inAccountList = false;
  let draft: Draft | null = null;
  for (const { line, lineNumber } of lines(text)) {
    if (line.startsWith('!')) {
      const type = /^!Type:\s*(.+)$/i.exec(line.trim())?.[1]?.trim().toLowerCase();
      inAccountList = /^!Account/i.test(line);
      reading = type !== undefined && READ.has(type);
      draft = null;
      continue;
    }
    if (line.trim() === '') continue;
    const code = line[0] ?? '';
    const value = line.slice(1);
    if (inAccountList) {
      if (code === 'N') account = fold(value);
      continue;
    }
    if (!reading) continue;
    if (code === '^') {
      if (draft !== null) {
        const item = toItem(draft, order, currency, account);
        if (item !== null) yield item;
      }
      draft = null;
      continue;
    }
    draft ??= { lineNumber, fields: new Map(), splitTotal: null, inSplit: false, bad: null };
    if (code === 'S') draft.inSplit = true;
    else if (code === '$') {
      const split = qifAmount(value, currency);
      if (split.ok) draft.splitTotal = (draft.splitTotal ?? 0n) + split.minor;
    } else if (!draft.inSplit && !draft.fields.has(code)) draft.fields.set(code, value);
  }
  if (draft !== null && reading) {
    const item = toItem(draft, order, currency, account);
    if (item !== null) yield item;
  }
}

function toItem(d: Draft, order: DateOrder, currency: string, account: string | null): StatementItem | null {
  const f = d.fields;
  const payee = fold(f.get('P') ?? '');
  if (/^opening balance$/i.test(payee) && /^\[.*\]$/.test((f.get('L') ?? '').trim())) return null;
  const reject = (reason: string): StatementItem => ({ kind: 'rejected', lineNumber: d.lineNumber, reason });
  const dateText = f.get('D') ?? '';
  const bookedDate = qifDate(dateText, order);
  if (bookedDate === null) {
    return reject(
      `date '${dateText.trim()}' is not a QIF date like ${order === 'MDY' ? "12/31/2024 or 12/31'24" : '31/12/2024'}`,
    );
  }
  const amountText = f.get('T') ?? f.get('U');
  let amountMinor: bigint;
  if (amountText !== undefined) {
    const parsed = qifAmount(amountText, currency);
    if (!parsed.ok) return reject(parsed.reason);
    amountMinor = parsed.minor;
  } else if (d.splitTotal !== null) amountMinor = d.splitTotal;
  else return reject('the record has no T amount (like -1,234.56)');
  const number = fold(f.get('N') ?? '');
  return {
    kind: 'line',
    line: {
      lineNumber: d.lineNumber,
      accountRef: account,
      bookedDate,
      valueDate: null,
      amountMinor,
      currency,
      originalAmountMinor: null,
      originalCurrency: null,
      description: joinDistinct([payee, f.get('M')]),
      counterpartyName: payee === '' ? null : payee,
      counterpartyIban: null,
      // N is a check number, or a word like ATM, EFT or DEP that repeats on many lines.
      bankReference: /^\d+$/.test(number) ? number : null,
      pending: false,
      cardLastFour: null,
      feesMinor: null,
    },
  };
}
