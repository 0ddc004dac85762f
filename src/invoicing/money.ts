import { type Iso4217Code, isIso4217Code, iso4217Codes } from '../lib/currencies.ts';
import { ISO4217_MINOR_UNITS } from '../lib/iso4217.ts';
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
 * ISO 4217 minor-unit exponents come from the generated table (src/lib/iso4217.ts): every current
 * code with ISO's minor unit, not ICU's display digits (Intl shows HUF, IDR and IQD without
 * decimals where ISO says 2, 2 and 3), because the exponent defines what one stored unit means.
 */
export type CurrencyCode = Iso4217Code;
export type CurrencyExponent = (typeof ISO4217_MINOR_UNITS)[CurrencyCode];

/** Codes are case-sensitive: the wire format is uppercase, and "usd" is refused rather than guessed. */
export function isSupportedCurrency(code: unknown): code is CurrencyCode {
  return isIso4217Code(code);
}

export function supportedCurrencies(): readonly CurrencyCode[] {
  return iso4217Codes();
}

export function currencyExponent(code: CurrencyCode): CurrencyExponent {
  return ISO4217_MINOR_UNITS[code];
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
