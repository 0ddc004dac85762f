import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertBalanced, includedTax, splitByWeights } from '../../src/books/allocations.ts';
import { AppError } from '../../src/contract/errors.ts';

const amount = fc.bigInt({ min: -999_999_999_999_999_999n, max: 999_999_999_999_999_999n });
const rate = fc.oneof(
  fc.constantFrom('0', '5', '13', '8.875', '19', '100'),
  fc.integer({ min: 0, max: 1_000_000 }).map((r) => (r / 10_000).toString()),
);

describe('entry allocations', () => {
  it('a split always sums exactly to the amount, every part has its sign (property)', () => {
    fc.assert(
      fc.property(
        amount,
        fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 1, maxLength: 50 }),
        (total, weights) => {
          fc.pre(weights.some((w) => w > 0n));
          const parts = splitByWeights(total, weights);
          assert.equal(parts.length, weights.length);
          assert.equal(
            parts.reduce((a, b) => a + b, 0n),
            total,
          );
          for (const part of parts) assert.ok(total >= 0n ? part >= 0n : part <= 0n);
          const allocations = parts.map((part) => ({
            categoryId: 'c',
            amountMinor: part,
            taxRate: '0',
            taxMinor: 0n,
          }));
          assertBalanced(total, allocations);
        },
      ),
    );
  });

  it('included tax has the amount’s sign and never exceeds it, so taxed splits still balance (property)', () => {
    fc.assert(
      fc.property(
        amount,
        rate,
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 1, maxLength: 10 }),
        (total, taxRate, weights) => {
          const allocations = splitByWeights(total, weights).map((part) => ({
            categoryId: 'c',
            amountMinor: part,
            taxRate,
            taxMinor: includedTax(part, taxRate),
          }));
          assertBalanced(total, allocations);
        },
      ),
    );
  });

  it('an unbalanced set is refused with both sums', () => {
    assert.throws(
      () =>
        assertBalanced(-1000n, [
          { categoryId: 'a', amountMinor: -600n, taxRate: '0', taxMinor: 0n },
          { categoryId: 'b', amountMinor: -399n, taxRate: '0', taxMinor: 0n },
        ]),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'allocations_unbalanced' &&
        error.details?.sum_minor === '-999' &&
        error.details?.amount_minor === '-1000',
    );
    assert.equal(includedTax(11300n, '13'), 1300n);
    assert.equal(includedTax(-11300n, '13'), -1300n);
  });
});
