import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { daysBetween } from '../../src/invoicing/calendar.ts';
import { type InstallmentInterval, splitEqual } from '../../src/invoicing/installments.ts';
import { MAX_MINOR, maxBigInt, minBigInt } from '../../src/invoicing/money.ts';
import { dateBetween, failure } from './helpers.ts';

const dateArb = dateBetween('2000-01-01', '2080-12-31');
const intervalArb: fc.Arbitrary<InstallmentInterval> = fc.oneof(
  fc.integer({ min: 1, max: 52 }).map((n) => ({ kind: 'weekly', intervalWeeks: n }) as const),
  fc.integer({ min: 1, max: 12 }).map((n) => ({ kind: 'monthly', intervalMonths: n }) as const),
);
const monthly = { kind: 'monthly', intervalMonths: 1 } as const;

describe('splitEqual', () => {
  test('always sums to the balance, differs by at most one, larger ones first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 120 }),
        fc.bigInt({ min: 0n, max: MAX_MINOR }),
        dateArb,
        intervalArb,
        (count, extra, first, interval) => {
          const balance = extra < BigInt(count) ? BigInt(count) + extra : extra;
          const plan = splitEqual(balance, count, first, interval);
          assert.equal(plan.length, count);
          assert.equal(
            plan.reduce((sum, i) => sum + i.amountMinor, 0n),
            balance,
          );
          const amounts = plan.map((i) => i.amountMinor);
          const max = amounts.reduce(maxBigInt);
          const min = amounts.reduce(minBigInt);
          assert.ok(max - min <= 1n && min >= 1n);
          plan.forEach((installment, i) => {
            assert.equal(installment.sequence, i + 1);
            const next = plan[i + 1];
            if (next !== undefined) {
              assert.ok(
                next.amountMinor <= installment.amountMinor,
                'remainder goes to the first installments',
              );
              assert.ok(daysBetween(installment.dueDate, next.dueDate) > 0, 'due dates increase');
            }
          });
          assert.equal(plan[0]?.dueDate, first);
        },
      ),
    );
  });

  test('remainder to the first installments', () => {
    assert.deepEqual(
      splitEqual(1000n, 3, '2025-01-15', monthly).map((i) => i.amountMinor),
      [334n, 333n, 333n],
    );
    assert.deepEqual(
      splitEqual(1001n, 4, '2025-01-15', monthly).map((i) => i.amountMinor),
      [251n, 250n, 250n, 250n],
    );
    assert.deepEqual(
      splitEqual(2n, 2, '2025-01-15', monthly).map((i) => i.amountMinor),
      [1n, 1n],
    );
  });

  test('monthly dates keep the first due date day, clamped in short months', () => {
    assert.deepEqual(
      splitEqual(400n, 4, '2024-01-31', monthly).map((i) => i.dueDate),
      ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30'],
    );
    assert.deepEqual(
      splitEqual(300n, 3, '2025-03-03', { kind: 'weekly', intervalWeeks: 2 }).map((i) => i.dueDate),
      ['2025-03-03', '2025-03-17', '2025-03-31'],
    );
  });

  test('refuses bad counts, balances, dates and intervals', () => {
    assert.equal(
      failure(() => splitEqual(100n, 1, '2025-01-01', monthly)),
      'invalid_installments count',
    );
    assert.equal(
      failure(() => splitEqual(100n, 121, '2025-01-01', monthly)),
      'invalid_installments count',
    );
    assert.equal(
      failure(() => splitEqual(100n, 2.5, '2025-01-01', monthly)),
      'invalid_installments count',
    );
    assert.equal(
      failure(() => splitEqual(2n, 3, '2025-01-01', monthly)),
      'invalid_installments count',
    );
    assert.equal(
      failure(() => splitEqual(-5n, 2, '2025-01-01', monthly)),
      'invalid_amount balanceMinor',
    );
    assert.equal(
      failure(() => splitEqual(100n, 2, '2025-02-30', monthly)),
      'invalid_date firstDueDate',
    );
    assert.equal(
      failure(() => splitEqual(100n, 2, '2025-01-01', { kind: 'monthly', intervalMonths: 0 })),
      'invalid_cadence interval',
    );
    assert.equal(
      failure(() => splitEqual(100n, 3, '9999-11-30', monthly)),
      'invalid_installments firstDueDate',
    );
  });
});
