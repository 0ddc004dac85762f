import { isMinorInRange } from '../../contract/formats.ts';
import { iso4217MinorUnit } from '../../lib/currencies.ts';

// Decimal strings to exact minor units. The exponent is the ISO 4217 minor unit from the
// generated table (src/lib/currencies.ts); a currency not in it is read with two decimals.

export function currencyExponent(currency: string | undefined): number {
  return currency === undefined ? 2 : (iso4217MinorUnit(currency.toUpperCase()) ?? 2);
}

/**
 * "1234.5" -> 123450n for a 2-decimal currency. Returns null for anything that is not a plain
 * decimal, or that has non-zero digits below the minor unit (an exact value cannot be kept).
 */
export function decimalToMinor(decimal: string, currency: string | undefined): bigint | null {
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(decimal.trim());
  if (!m) return null;
  const exponent = currencyExponent(currency);
  const fraction = m[3] ?? '';
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  if (/[1-9]/.test(fraction.slice(exponent))) return null;
  const minor = BigInt(`${m[2] ?? '0'}${kept}`);
  // Beyond the money range (docs/decisions.md 320) no amount is read: the books could not hold it.
  if (!isMinorInRange(minor)) return null;
  return m[1] === '-' ? -minor : minor;
}

/** Normalizes a decimal string for rates and unit prices: "19.00" -> "19", "5.50" -> "5.5". */
export function normalizeDecimal(decimal: string): string | null {
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(decimal.trim());
  if (!m) return null;
  const whole = (m[2] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const sign = m[1] === '-' && /[1-9]/.test(whole + fraction) ? '-' : '';
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
