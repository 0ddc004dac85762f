import { isMinorInRange } from '../../contract/formats.ts';

// Decimal strings to exact minor units. The exponent comes from ISO 4217; currencies not in
// the short table have two decimals, which holds for every currency receipts here arrive in.

const exponents: Record<string, number> = {
  BHD: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

export function currencyExponent(currency: string | undefined): number {
  return currency === undefined ? 2 : (exponents[currency.toUpperCase()] ?? 2);
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
