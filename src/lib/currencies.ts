// Lookups over the generated ISO 4217 table (src/lib/iso4217.ts): which codes are money here, how
// many decimals one unit has, and why a code is refused.
import { ISO4217_MINOR_UNITS, ISO4217_WITHDRAWN, ISO4217_WITHOUT_MINOR_UNIT } from './iso4217.ts';

export type Iso4217Code = keyof typeof ISO4217_MINOR_UNITS;

/** Case-sensitive: the wire format is uppercase, and "usd" is refused rather than guessed. */
export function isIso4217Code(code: unknown): code is Iso4217Code {
  return typeof code === 'string' && Object.hasOwn(ISO4217_MINOR_UNITS, code);
}

/** ISO 4217 minor unit of a current code, undefined for anything else. */
export function iso4217MinorUnit(code: string): number | undefined {
  return isIso4217Code(code) ? ISO4217_MINOR_UNITS[code] : undefined;
}

/** Every current code, sorted. */
export function iso4217Codes(): readonly Iso4217Code[] {
  return Object.keys(ISO4217_MINOR_UNITS).filter(isIso4217Code).sort();
}

/**
 * A sentence saying why `code` is not a currency here, for error messages ("HRK was withdrawn from
 * ISO 4217 in 2023, replaced by EUR"); undefined when the code is a current currency.
 */
export function currencyRefusal(code: string): string | undefined {
  if (isIso4217Code(code)) return undefined;
  const withdrawn = ISO4217_WITHDRAWN[code.toUpperCase()];
  if (withdrawn)
    return `${code} was withdrawn from ISO 4217 in ${withdrawn[1]}, replaced by ${withdrawn[0]}.`;
  const noMinor = ISO4217_WITHOUT_MINOR_UNIT[code.toUpperCase()];
  if (noMinor)
    return `${code} (${noMinor}) has no minor unit in ISO 4217 and is not accepted as an amount's currency.`;
  if (isIso4217Code(code.toUpperCase()))
    return `${code} must be written in uppercase (${code.toUpperCase()}).`;
  return `${code} is not an ISO 4217 currency code.`;
}
