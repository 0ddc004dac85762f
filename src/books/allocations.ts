import { AppError } from '../contract/errors.ts';
import { roundHalfEven } from '../lib/decimal.ts';

/** One line of an entry: a gross amount (tax included) in one category. */
export interface Allocation {
  categoryId: string;
  amountMinor: bigint;
  /** Percent, 0-100, at most 4 fraction digits. */
  taxRate: string;
  /** The tax inside `amountMinor`, same sign (or 0). */
  taxMinor: bigint;
}

const RATE_SCALE = 1_000_000n; // rates in 1/10^4 percent: 100% = 10^6
const TAX_RATE = /^(100(\.0{1,4})?|[0-9]{1,2}(\.[0-9]{1,4})?)$/;

/** A percentage 0-100 with at most 4 fraction digits, in units of 1/10^4 percent. */
function parseTaxRate(text: string): bigint {
  if (!TAX_RATE.test(text)) throw new RangeError(`not a tax rate: ${text}`);
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
}

/** Tax included in a gross amount at `rate`: gross x r / (1 + r), rounded half-even. */
export function includedTax(grossMinor: bigint, taxRate: string): bigint {
  const rate = parseTaxRate(taxRate);
  if (rate === 0n) return 0n;
  return roundHalfEven(grossMinor * rate, RATE_SCALE + rate);
}

export function checkTaxRate(taxRate: string, field: string): void {
  try {
    parseTaxRate(taxRate);
  } catch {
    throw new AppError('invalid_tax_rate', `${field} is not a percentage from 0 to 100.`, { field });
  }
}

/**
 * The invariant of every entry: its allocations sum exactly to its amount, and each allocation's
 * tax has the allocation's sign and is no larger than it.
 */
export function assertBalanced(
  amountMinor: bigint,
  allocations: readonly Allocation[],
  field = 'allocations',
): void {
  let sum = 0n;
  allocations.forEach((allocation, index) => {
    sum += allocation.amountMinor;
    const tax = allocation.taxMinor;
    const amount = allocation.amountMinor;
    const sameSign = tax === 0n || (tax > 0n && amount > 0n) || (tax < 0n && amount < 0n);
    if (!sameSign || (tax < 0n ? -tax : tax) > (amount < 0n ? -amount : amount)) {
      throw new AppError(
        'invalid_input',
        `${field}.${index}.taxMinor must have the amount's sign and not exceed it.`,
        {
          field: `${field}.${index}.taxMinor`,
        },
      );
    }
  });
  if (sum !== amountMinor) {
    throw new AppError(
      'allocations_unbalanced',
      `The allocations sum to ${sum}, the entry is ${amountMinor}.`,
      {
        field,
        details: { amount_minor: amountMinor.toString(), sum_minor: sum.toString() },
      },
    );
  }
}

/**
 * Splits `amountMinor` across `weights` (non-negative, not all 0) in proportion, largest
 * remainder first, so the parts always sum exactly to the amount.
 */
export function splitByWeights(amountMinor: bigint, weights: readonly bigint[]): bigint[] {
  const total = weights.reduce((a, b) => a + b, 0n);
  if (total <= 0n) throw new RangeError('weights must sum to more than 0');
  const negative = amountMinor < 0n;
  const magnitude = negative ? -amountMinor : amountMinor;
  const parts = weights.map((w) => (magnitude * w) / total);
  let rest = magnitude - parts.reduce((a, b) => a + b, 0n);
  const order = weights
    .map((w, index) => ({ index, remainder: (magnitude * w) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (rest === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    rest -= 1n;
  }
  return parts.map((part) => (negative ? -part : part));
}
