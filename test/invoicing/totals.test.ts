import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvoicingError } from '../../src/invoicing/errors.ts';
import { computeInvoiceTotals, computeLineTotals, type LineItemInput } from '../../src/invoicing/totals.ts';
import { formatScaledDecimal, parseScaledDecimal, roundHalfEven } from '../../src/lib/decimal.ts';

/**
 * Independent oracle: a decimal string becomes the fraction digits/10^k with k its own
 * length (not padded to a fixed scale), and rounding picks the nearer of floor and floor+1
 * by comparing distances, ties to the even one.
 */
interface Rational {
  num: bigint;
  den: bigint;
}
function rational(text: string): Rational {
  const [whole = '', fraction = ''] = text.split('.');
  return { num: BigInt(whole + fraction), den: 10n ** BigInt(fraction.length) };
}
function nearestHalfEven({ num, den }: Rational): bigint {
  const low = num / den; // inputs are non-negative, so truncation is floor
  const high = low + 1n;
  const toLow = num - low * den;
  const toHigh = high * den - num;
  if (toLow !== toHigh) return toLow < toHigh ? low : high;
  return low % 2n === 0n ? low : high;
}
function oracleLine(line: LineItemInput) {
  const q = rational(line.quantity);
  const subtotal = nearestHalfEven({ num: q.num * line.unitAmountMinor, den: q.den });
  const r = rational(line.taxRate ?? '0');
  const tax = nearestHalfEven({ num: subtotal * r.num, den: r.den * 100n });
  return { subtotalMinor: subtotal, taxMinor: tax, totalMinor: subtotal + tax };
}

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const quantityArb = fc
  .tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.option(digits(1, 4), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? String(whole) : `${whole}.${fraction}`))
  .filter((q) => /[1-9]/.test(q));
const taxRateArb = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.option(digits(1, 4), { nil: undefined }))
  .map(([whole, fraction]) =>
    fraction === undefined || whole === 100 ? String(whole) : `${whole}.${fraction}`,
  );
const lineArb: fc.Arbitrary<LineItemInput> = fc.record({
  quantity: quantityArb,
  unitAmountMinor: fc.oneof(fc.bigInt({ min: 0n, max: 100_000n }), fc.bigInt({ min: 0n, max: 10n ** 8n })),
  taxRate: fc.option(taxRateArb, { nil: undefined }),
});

describe('line and invoice totals', () => {
  test('every line equals the exact rational computation rounded half-even', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        assert.deepEqual(computeLineTotals(line), oracleLine(line));
      }),
      { numRuns: 2000 },
    );
  });

  test('invoice totals are exact sums of the rounded lines and total = subtotal + tax', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), (lines) => {
        const totals = computeInvoiceTotals(lines);
        const sum = (pick: (l: ReturnType<typeof oracleLine>) => bigint) =>
          lines.map(oracleLine).reduce((acc, l) => acc + pick(l), 0n);
        assert.equal(totals.lines.length, lines.length);
        assert.equal(
          totals.subtotalMinor,
          sum((l) => l.subtotalMinor),
        );
        assert.equal(
          totals.taxMinor,
          sum((l) => l.taxMinor),
        );
        assert.equal(totals.totalMinor, totals.subtotalMinor + totals.taxMinor);
        for (const l of totals.lines) assert.equal(l.totalMinor, l.subtotalMinor + l.taxMinor);
      }),
    );
  });

  test('ties round to even on the subtotal and on the tax', () => {
    const sub = (quantity: string, unitAmountMinor: bigint) =>
      computeLineTotals({ quantity, unitAmountMinor });
    assert.equal(sub('0.5', 1n).subtotalMinor, 0n);
    assert.equal(sub('1.5', 1n).subtotalMinor, 2n);
    assert.equal(sub('2.5', 1n).subtotalMinor, 2n);
    assert.equal(sub('0.0001', 5000n).subtotalMinor, 0n); // 0.5 -> 0
    assert.equal(sub('0.0003', 5000n).subtotalMinor, 2n); // 1.5 -> 2
    assert.equal(computeLineTotals({ quantity: '1', unitAmountMinor: 50n, taxRate: '13' }).taxMinor, 6n); // 6.5
    assert.equal(computeLineTotals({ quantity: '1', unitAmountMinor: 150n, taxRate: '13' }).taxMinor, 20n); // 19.5
  });

  test('worked examples, including the ones floats get wrong', () => {
    assert.deepEqual(computeLineTotals({ quantity: '1.5', unitAmountMinor: 123450n, taxRate: '13' }), {
      subtotalMinor: 185175n,
      taxMinor: 24073n, // 24072.75
      totalMinor: 209248n,
    });
    // 1.005 * 100 is 100.49999999999999 as a double; exactly 100.5 here, and 100 is even.
    assert.equal(computeLineTotals({ quantity: '1.005', unitAmountMinor: 100n }).subtotalMinor, 100n);
    // 8.875% of 1000 = 88.75 -> 89.
    assert.equal(
      computeLineTotals({ quantity: '1', unitAmountMinor: 1000n, taxRate: '8.875' }).taxMinor,
      89n,
    );
    // Ten lines of 0.1 x 1 minor unit: each rounds to 0; the invoice does not invent a unit.
    const tenths = Array.from({ length: 10 }, () => ({ quantity: '0.1', unitAmountMinor: 1n }));
    assert.equal(computeInvoiceTotals(tenths).totalMinor, 0n);
    assert.deepEqual(computeInvoiceTotals([]), {
      lines: [],
      subtotalMinor: 0n,
      taxMinor: 0n,
      totalMinor: 0n,
    });
  });

  test('bad inputs fail with the code and field of the offending line', () => {
    const fieldOf = (lines: LineItemInput[]) => {
      try {
        computeInvoiceTotals(lines);
      } catch (error) {
        if (error instanceof InvoicingError) return `${error.code} ${error.field}`;
        throw error;
      }
      return 'no error';
    };
    const ok = { quantity: '1', unitAmountMinor: 1n };
    for (const quantity of [
      '0',
      '0.0000',
      '-1',
      '1.23456',
      '1e3',
      ' 1',
      '01',
      '.5',
      '1.',
      '',
      'NaN',
      '1,5',
      '1000000000',
    ]) {
      assert.equal(
        fieldOf([ok, { quantity, unitAmountMinor: 1n }]),
        'invalid_quantity lines[1].quantity',
        quantity,
      );
    }
    for (const taxRate of ['100.0001', '101', '-1', '13%', '1.23456', '']) {
      assert.equal(fieldOf([{ ...ok, taxRate }]), 'invalid_tax_rate lines[0].taxRate', taxRate);
    }
    assert.equal(
      fieldOf([{ quantity: '1', unitAmountMinor: -1n }]),
      'invalid_amount lines[0].unitAmountMinor',
    );
    assert.equal(
      fieldOf([{ quantity: '999999999', unitAmountMinor: 10n ** 17n }]),
      'amount_overflow lines[0]',
    );
    assert.equal(fieldOf([{ ...ok, taxRate: '100' }]), 'no error');
  });
});

describe('decimal helpers', () => {
  test('round half-even is symmetric for negatives', () => {
    assert.equal(roundHalfEven(-5n, 2n), -2n);
    assert.equal(roundHalfEven(-7n, 2n), -4n);
    assert.equal(roundHalfEven(-6n, 4n), -2n);
    assert.throws(() => roundHalfEven(1n, 0n), RangeError);
  });

  test('scaled decimals round-trip to their shortest form', () => {
    const format = { maxIntegerDigits: 9, scale: 4 };
    fc.assert(
      fc.property(quantityArb, (q) => {
        const scaled = parseScaledDecimal(q, format);
        assert.notEqual(scaled, null);
        const shortest = formatScaledDecimal(scaled ?? 0n, 4);
        assert.equal(parseScaledDecimal(shortest, format), scaled);
        assert.ok(!shortest.endsWith('0') || !shortest.includes('.'));
      }),
    );
    assert.equal(formatScaledDecimal(-15000n, 4), '-1.5');
  });
});
