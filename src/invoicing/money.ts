import { InvoicingError } from './errors.ts';

/**
 * Money is an exact integer of minor units: a bigint in code, a decimal string on the wire.
 * 18 digits keeps every value inside a signed 64-bit database column (max 9.22e18) with room
 * for sums computed in SQL, and is far above any real invoice.
 */
export const MAX_MINOR = 999_999_999_999_999_999n;

const NON_NEGATIVE_MINOR = /^(0|[1-9][0-9]{0,17})$/;
const SIGNED_MINOR = /^(0|-?[1-9][0-9]{0,17})$/;

/** True when `value` is a canonical non-negative minor-unit string ("0", "12345"; no "+", "007", "1.0"). */
export function isMinorString(value: unknown): value is string {
  return typeof value === 'string' && NON_NEGATIVE_MINOR.test(value);
}

/** Parses a non-negative minor-unit string; throws `invalid_amount` naming `field`. */
export function parseMinor(value: string, field?: string): bigint {
  if (!NON_NEGATIVE_MINOR.test(value))
    throw new InvoicingError('invalid_amount', JSON.stringify(value), field);
  return BigInt(value);
}

/** Parses a signed minor-unit string (adjustments, ledger deltas); "-0" is not canonical. */
export function parseSignedMinor(value: string, field?: string): bigint {
  if (!SIGNED_MINOR.test(value)) throw new InvoicingError('invalid_amount', JSON.stringify(value), field);
  return BigInt(value);
}

/** Formats a non-negative amount for the wire; refuses values the parser would refuse. */
export function formatMinor(amount: bigint): string {
  assertMinorRange(amount);
  return amount.toString();
}

/** Formats a signed amount for the wire. */
export function formatSignedMinor(amount: bigint): string {
  if (amount > MAX_MINOR || amount < -MAX_MINOR)
    throw new InvoicingError('amount_overflow', amount.toString());
  return amount.toString();
}

/** Throws unless 0 <= amount <= MAX_MINOR: `invalid_amount` below, `amount_overflow` above. */
export function assertMinorRange(amount: bigint, field?: string): bigint {
  if (amount < 0n) throw new InvoicingError('invalid_amount', 'negative', field);
  if (amount > MAX_MINOR) throw new InvoicingError('amount_overflow', amount.toString(), field);
  return amount;
}

/** Adds non-negative amounts, failing with `amount_overflow` instead of producing an unstorable value. */
export function addMinor(a: bigint, b: bigint): bigint {
  return assertMinorRange(a + b);
}

/** Exact sum of non-negative amounts; an empty list sums to 0. */
export function sumMinor(amounts: Iterable<bigint>): bigint {
  let total = 0n;
  for (const amount of amounts) total = addMinor(total, assertMinorRange(amount));
  return total;
}

/** a - b, refusing a negative result (e.g. a payment larger than a balance). */
export function subtractMinor(a: bigint, b: bigint): bigint {
  return assertMinorRange(a - b);
}

export function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBigInt(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/**
 * ISO 4217 minor-unit exponents. An explicit table rather than Intl.NumberFormat: Intl follows
 * CLDR display conventions (Node 20 reports 0 digits for HUF, IDR and IQD, where ISO says 2, 2
 * and 3) and may change with ICU updates, while the exponent defines what one stored unit means.
 */
// biome-ignore format: a compact table reads better grouped by exponent
const CURRENCY_EXPONENTS = {
  AED: 2, AUD: 2, BGN: 2, BRL: 2, CAD: 2, CHF: 2, CNY: 2, CZK: 2, DKK: 2, EUR: 2, GBP: 2,
  HKD: 2, HUF: 2, IDR: 2, ILS: 2, INR: 2, MXN: 2, MYR: 2, NOK: 2, NZD: 2, PHP: 2, PLN: 2,
  RON: 2, SAR: 2, SEK: 2, SGD: 2, THB: 2, TRY: 2, USD: 2, ZAR: 2,
  CLP: 0, ISK: 0, JPY: 0, KRW: 0, PYG: 0, UGX: 0, VND: 0, XAF: 0, XOF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
} as const;

export type CurrencyCode = keyof typeof CURRENCY_EXPONENTS;
export type CurrencyExponent = (typeof CURRENCY_EXPONENTS)[CurrencyCode];

/** Codes are case-sensitive: the wire format is uppercase, and "usd" is refused rather than guessed. */
export function isSupportedCurrency(code: unknown): code is CurrencyCode {
  return typeof code === 'string' && Object.hasOwn(CURRENCY_EXPONENTS, code);
}

export function supportedCurrencies(): readonly CurrencyCode[] {
  return Object.keys(CURRENCY_EXPONENTS).filter(isSupportedCurrency).sort();
}

export function currencyExponent(code: CurrencyCode): CurrencyExponent {
  return CURRENCY_EXPONENTS[code];
}

/** Narrows a wire currency string or throws `unsupported_currency` naming `field`. */
export function parseCurrency(code: string, field?: string): CurrencyCode {
  if (!isSupportedCurrency(code))
    throw new InvoicingError('unsupported_currency', JSON.stringify(code), field);
  return code;
}

/**
 * Human display, e.g. ("CAD", 123450n) -> "CAD 1,234.50", ("JPY", 1235n) -> "JPY 1,235".
 * Fixed en-style grouping so documents read the same whatever the server's locale.
 */
export function formatMoneyForDisplay(currency: CurrencyCode, amount: bigint): string {
  const exponent = currencyExponent(currency);
  const digits = (amount < 0n ? -amount : amount).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = amount < 0n ? '-' : '';
  return `${currency} ${sign}${grouped}${exponent > 0 ? `.${fraction}` : ''}`;
}
