// An amount as a person types it, read into minor units: the dashboard's amount fields, the
// portal's hours, and the receipts inbox's search (an amount typed as printed finds the receipt).

/**
 * An amount typed as people write it ("23.80", "23,80", "1,234.56", "1.234,56", "1 234,5", "-5")
 * -> the decimal string of minor units for a currency with `exponent` decimals; undefined when
 * the text is not such an amount (more decimals than the currency has, stray characters). With
 * one kind of separator, it is the decimal point when 1..exponent digits follow it once, else it
 * groups thousands; with both kinds, the last one is the decimal point.
 */
export function typedAmountToMinor(text: string, exponent: number): string | undefined {
  const compact = text.replace(/[\s\u00a0\u202f']/g, '');
  const match = /^([+-]?)([\d.,]+)$/.exec(compact);
  if (!match) return undefined;
  const [, sign, body = ''] = match;
  const lastDot = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  let whole = body;
  let fraction = '';
  const decimalAt = (at: number) => {
    whole = body.slice(0, at);
    fraction = body.slice(at + 1);
  };
  if (lastDot >= 0 && lastComma >= 0) decimalAt(Math.max(lastDot, lastComma));
  else {
    const at = Math.max(lastDot, lastComma);
    const separator = body[at];
    const once = at >= 0 && body.indexOf(separator ?? '') === at;
    const after = body.length - at - 1;
    // "1,234" groups thousands in a 2-decimal currency; "1,234" is 1.234 in a 3-decimal one.
    if (once && after >= 1 && after <= exponent && !(after === 3 && exponent < 3)) decimalAt(at);
  }
  // What is left of the decimal point is digits, or thousands in groups of three ("1.234.567").
  if (!/^(\d+|\d{1,3}(\.\d{3})+|\d{1,3}(,\d{3})+)$/.test(whole)) return undefined;
  if (!/^\d*$/.test(fraction) || fraction.length > exponent) return undefined;
  const digits = whole.replace(/[.,]/g, '');
  const minor = BigInt(digits + fraction.padEnd(exponent, '0')).toString();
  return sign === '-' && minor !== '0' ? `-${minor}` : minor;
}
