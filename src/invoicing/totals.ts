import { parseScaledDecimal, pow10, roundHalfEven } from '../lib/decimal.ts';
import { InvoicingError } from './errors.ts';
import { assertMinorRange, sumMinor } from './money.ts';

/** Quantities and tax rates carry at most 4 fraction digits; both are scaled by 10^4 internally. */
export const QUANTITY_SCALE = 4;
export const TAX_RATE_SCALE = 4;
const QUANTITY_FORMAT = { maxIntegerDigits: 9, scale: QUANTITY_SCALE } as const;
const TAX_RATE_FORMAT = { maxIntegerDigits: 3, scale: TAX_RATE_SCALE } as const;
const HUNDRED_PERCENT = 100n * pow10(TAX_RATE_SCALE);

export interface LineItemInput {
  /** Decimal string, > 0, at most 9 integer and 4 fraction digits ("1", "1.5", "0.0001"). */
  readonly quantity: string;
  /** Price of one unit in minor units, 0 allowed (free items); discounts are not negative lines. */
  readonly unitAmountMinor: bigint;
  /** Percent, 0 to 100, at most 4 fraction digits ("13", "8.875"); absent means untaxed. */
  readonly taxRate?: string | undefined;
}

export interface LineTotals {
  readonly subtotalMinor: bigint;
  readonly taxMinor: bigint;
  /** Always subtotalMinor + taxMinor. */
  readonly totalMinor: bigint;
}

export interface InvoiceTotals extends LineTotals {
  /** Same order as the input lines. */
  readonly lines: readonly LineTotals[];
}

/** Parses a quantity into units of 1/10^4; throws `invalid_quantity` for malformed or zero values. */
export function parseQuantity(text: string, field?: string): bigint {
  const scaled = parseScaledDecimal(text, QUANTITY_FORMAT);
  if (scaled === null || scaled === 0n)
    throw new InvoicingError('invalid_quantity', JSON.stringify(text), field);
  return scaled;
}

/** Parses a tax percentage into units of 1/10^4 percent; throws `invalid_tax_rate` outside 0..100. */
export function parseTaxRate(text: string, field?: string): bigint {
  const scaled = parseScaledDecimal(text, TAX_RATE_FORMAT);
  if (scaled === null || scaled > HUNDRED_PERCENT) {
    throw new InvoicingError('invalid_tax_rate', JSON.stringify(text), field);
  }
  return scaled;
}

/**
 * One line: subtotal = quantity x unit amount, rounded half-even to a minor unit; tax = that
 * rounded subtotal x rate, rounded half-even. Tax is taken on the rounded subtotal so the
 * printed subtotal x printed rate reproduces the printed tax.
 */
export function computeLineTotals(line: LineItemInput, field = 'line'): LineTotals {
  const quantity = parseQuantity(line.quantity, `${field}.quantity`);
  const unit = assertMinorRange(line.unitAmountMinor, `${field}.unitAmountMinor`);
  const rate = line.taxRate === undefined ? 0n : parseTaxRate(line.taxRate, `${field}.taxRate`);
  const subtotalMinor = assertMinorRange(roundHalfEven(quantity * unit, pow10(QUANTITY_SCALE)), field);
  const taxMinor = assertMinorRange(roundHalfEven(subtotalMinor * rate, HUNDRED_PERCENT), field);
  const totalMinor = assertMinorRange(subtotalMinor + taxMinor, field);
  return { subtotalMinor, taxMinor, totalMinor };
}

/**
 * Invoice totals are exact sums of the already-rounded lines, never re-rounded, so the
 * document always adds up. An empty list gives zero totals; the caller bounds the line count.
 */
export function computeInvoiceTotals(lines: readonly LineItemInput[]): InvoiceTotals {
  const computed = lines.map((line, index) => computeLineTotals(line, `lines[${index}]`));
  return {
    lines: computed,
    subtotalMinor: sumMinor(computed.map((line) => line.subtotalMinor)),
    taxMinor: sumMinor(computed.map((line) => line.taxMinor)),
    totalMinor: sumMinor(computed.map((line) => line.totalMinor)),
  };
}
