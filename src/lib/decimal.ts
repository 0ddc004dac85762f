/**
 * Fixed-point decimals held as BigInt scaled by 10^scale. Quantities and tax rates arrive as
 * decimal strings and are never turned into floats: "8.875" at scale 4 is 88750n.
 */

export interface ScaledDecimalFormat {
  /** Digits allowed before the point; bounds the value so products stay reasonable. */
  readonly maxIntegerDigits: number;
  /** Fraction digits allowed, and the scale of the returned integer. */
  readonly scale: number;
}

/**
 * Parses a non-negative decimal ("0", "1.5", "12.0001"; not "01", ".5", "1.", "+1", "1e3")
 * into value * 10^scale, or null when malformed. Trailing fraction zeros are accepted.
 */
export function parseScaledDecimal(text: string, format: ScaledDecimalFormat): bigint | null {
  const pattern = new RegExp(
    `^(0|[1-9][0-9]{0,${format.maxIntegerDigits - 1}})(?:\\.([0-9]{1,${format.scale}}))?$`,
  );
  const match = pattern.exec(text);
  if (match === null) return null;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(format.scale, '0');
  return BigInt(whole + fraction);
}

/** Renders value / 10^scale without trailing fraction zeros: (15000n, 4) -> "1.5". */
export function formatScaledDecimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/**
 * numerator / denominator rounded to the nearest integer, ties to the even neighbour
 * (banker's rounding), which avoids the upward bias of half-up over many lines.
 * Symmetric for negative numerators: -2.5 -> -2, -3.5 -> -4.
 */
export function roundHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) {
    quotient += 1n;
  }
  return negative ? -quotient : quotient;
}

/** 10^exponent as a bigint. */
export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}
