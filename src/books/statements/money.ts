import { isMinorInRange, MAX_MINOR } from '../../contract/formats.ts';

/**
 * Exact decimal text -> bigint minor units. Never goes through a float: the digits are read as text
 * and scaled by the currency's ISO 4217 exponent.
 */
import { iso4217MinorUnit } from '../../lib/currencies.ts';

/**
 * ISO 4217 minor unit from the generated table (src/lib/iso4217.ts). A code outside the table (a
 * typo, a withdrawn code) reads with 2 decimals here; the account's currency, which the import
 * compares against, is always a current code.
 */

/** The largest amount the books hold (docs/decisions.md 320), as a decimal of the currency. */
export function maxAmountText(exponent: number): string {
  const digits = MAX_MINOR.toString();
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

export function currencyExponent(currency: string): number {
  return iso4217MinorUnit(currency.toUpperCase()) ?? 2;
}

export function isCurrencyCode(text: string): boolean {
  return /^[A-Z]{3}$/.test(text);
}

/**
 * A plain decimal `-1234.5` (dot, no grouping) to minor units; null when it is not such a number or
 * carries more decimals than the currency has (unless the extra digits are zeros: `12.500` EUR is fine).
 */
export function decimalToMinor(text: string, exponent: number): bigint | null {
  const minor = decimalToExactMinor(text, exponent);
  // Beyond the money range (docs/decisions.md 320) is not an amount the books can hold.
  return minor === null || !isMinorInRange(minor) ? null : minor;
}

/** decimalToMinor without the money range: for callers that say why an amount is refused. */
function decimalToExactMinor(text: string, exponent: number): bigint | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null) return null;
  const [, sign = '', whole = '', frac = ''] = m;
  if (whole === '' && frac === '') return null;
  const significant = frac.replace(/0+$/, '');
  if (significant.length > exponent) return null;
  const minor = BigInt((whole || '0') + frac.padEnd(exponent, '0').slice(0, exponent));
  return sign === '-' ? -minor : minor;
}

export type DecimalSeparator = ',' | '.';

/** Whole part (grouped by threes with the other separator, or plain digits), then the decimals. */
const SHAPES: Record<DecimalSeparator, RegExp> = {
  ',': /^(\d{1,3}(?:\.\d{3})+|\d+)?(?:,(\d+))?$/,
  '.': /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/,
};

export type AmountResult = { ok: true; minor: bigint } | { ok: false; reason: string };

/**
 * A bank's amount text with a known decimal separator: grouping by the other separator, spaces,
 * apostrophes or NBSP; a leading or trailing minus, parentheses for negatives, a currency symbol or
 * code around the number. Rejects anything else with a reason a person can act on.
 */
export function parseAmount(raw: string, decimal: DecimalSeparator, currency: string): AmountResult {
  const exponent = currencyExponent(currency);
  let t = raw.trim().replace(/[\s\u00a0\u202f']/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  // Card exports write `12.50 CR` / `12.50 DR` (money in / money out) in the amount cell itself.
  const marker = /^(CR|DR)(?=[\d.,€$£¥(+-])|(?<=[\d.,)])(CR|DR)$/i.exec(t);
  if (marker !== null) {
    t = t.slice(0, marker.index) + t.slice(marker.index + marker[0].length);
    if (/^dr$/i.test(marker[0])) negative = !negative;
  }
  t = t.replace(/^[A-Z]{3}|[A-Z]{3}$/g, '').replace(/^[€$£¥]|[€$£¥]$/g, '');
  if (t.startsWith('-') || t.startsWith('+')) {
    negative = negative !== t.startsWith('-');
    t = t.slice(1);
  } else if (t.endsWith('-') || t.endsWith('+')) {
    negative = negative !== t.endsWith('-');
    t = t.slice(0, -1);
  }
  t = t.replace(/^[€$£¥]/, '');
  const m = SHAPES[decimal].exec(t);
  const example = decimal === ',' ? '1.234,56' : '1,234.56';
  if (t === '' || m === null || (m[1] === undefined && m[2] === undefined)) {
    return { ok: false, reason: `amount '${raw}' is not a number like ${example}` };
  }
  const whole = (m[1] ?? '0').replace(/[.,]/g, '');
  const minor = decimalToExactMinor(`${whole}.${m[2] ?? ''}`, exponent);
  if (minor === null) {
    return {
      ok: false,
      reason: `amount '${raw}' has more decimals than ${currency} allows (${exponent})`,
    };
  }
  if (!isMinorInRange(minor)) {
    return { ok: false, reason: `amount '${raw}' is beyond ${maxAmountText(exponent)} either way` };
  }
  return { ok: true, minor: negative ? -minor : minor };
}

/** Which separator a sample of amounts uses; `fallback` when every sample is ambiguous (`1,000`). */
export function guessDecimalSeparator(
  samples: Iterable<string>,
  fallback: DecimalSeparator,
): DecimalSeparator {
  let comma = 0;
  let dot = 0;
  for (const s of samples) {
    const t = s.replace(/[^\d.,]/g, '');
    const lastComma = t.lastIndexOf(',');
    const lastDot = t.lastIndexOf('.');
    if (lastComma >= 0 && lastDot >= 0) {
      if (lastComma > lastDot) comma++;
      else dot++;
    } else if (lastComma >= 0) {
      // `1,000` could be either; `5,5` and `5,50` cannot be grouping, `1,000,000` cannot be a decimal.
      if (t.length - lastComma - 1 !== 3) comma++;
      else if ((t.match(/,/g)?.length ?? 0) > 1) dot++;
    } else if (lastDot >= 0) {
      if (t.length - lastDot - 1 !== 3) dot++;
      else if ((t.match(/\./g)?.length ?? 0) > 1) comma++;
    }
  }
  if (comma === dot) return fallback;
  return comma > dot ? ',' : '.';
}

/** minor units -> text with the given separators (for tests and messages). */
export function formatMinor(
  minor: bigint,
  exponent: number,
  decimal: DecimalSeparator,
  group: string,
): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const frac = digits.slice(digits.length - exponent);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${exponent > 0 ? decimal + frac : ''}`;
}

/** a * num / den rounded half away from zero, exact (used for OFX exchange rates). */
export function mulDivRound(a: bigint, num: bigint, den: bigint): bigint {
  const n = a * num;
  const q = n / den;
  const r = n % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= (den < 0n ? -den : den)) return n < 0n !== den < 0n ? q - 1n : q + 1n;
  return q;
}
