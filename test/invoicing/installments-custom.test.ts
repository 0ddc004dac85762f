import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { addDays } from '../../src/invoicing/calendar.ts';
import { validateCustom } from '../../src/invoicing/installments.ts';
import { dateBetween } from './helpers.ts';

const dateArb = dateBetween('2000-01-01', '2080-12-31');

describe('validateCustom', () => {
  const errorOf = (balance: bigint, items: { dueDate: string; amountMinor: bigint }[]) => {
    const result = validateCustom(balance, items);
    return result.ok ? 'ok' : `${result.error.code} ${result.error.field}`;
  };

  test('accepts a plan that sums exactly, with increasing dates', () => {
    const result = validateCustom(1000n, [
      { dueDate: '2025-01-01', amountMinor: 100n },
      { dueDate: '2025-01-02', amountMinor: 900n },
    ]);
    assert.deepEqual(result, {
      ok: true,
      installments: [
        { sequence: 1, dueDate: '2025-01-01', amountMinor: 100n },
        { sequence: 2, dueDate: '2025-01-02', amountMinor: 900n },
      ],
    });
  });

  test('names the rule and the field that fails', () => {
    const a = { dueDate: '2025-01-01', amountMinor: 500n };
    const b = { dueDate: '2025-02-01', amountMinor: 500n };
    assert.equal(errorOf(1000n, [a, b]), 'ok');
    assert.equal(errorOf(1001n, [a, b]), 'invalid_installments items');
    assert.equal(errorOf(999n, [a, b]), 'invalid_installments items');
    assert.equal(
      errorOf(1000n, [a, { ...b, amountMinor: 0n }, { ...b, dueDate: '2025-03-01' }]),
      'invalid_installments items[1].amountMinor',
    );
    assert.equal(
      errorOf(1000n, [
        { ...a, amountMinor: 1500n },
        { ...b, amountMinor: -500n },
      ]),
      'invalid_installments items[1].amountMinor',
    );
    assert.equal(errorOf(1000n, [a, { ...b, dueDate: a.dueDate }]), 'invalid_installments items[1].dueDate');
    assert.equal(errorOf(1000n, [b, a]), 'invalid_installments items[1].dueDate');
    assert.equal(errorOf(1000n, [a, { ...b, dueDate: '2025-02-29' }]), 'invalid_date items[1].dueDate');
    assert.equal(errorOf(1000n, [{ ...a, amountMinor: 1000n }]), 'invalid_installments items');
    assert.equal(errorOf(-1n, [a, b]), 'invalid_amount balanceMinor');
    const many = Array.from({ length: 121 }, (_, i) => ({
      dueDate: addDays('2025-01-01', i),
      amountMinor: 1n,
    }));
    assert.equal(errorOf(121n, many), 'invalid_installments items');
    assert.equal(errorOf(120n, many.slice(0, 120)), 'ok');
  });

  test('accepts exactly the plans whose sum is the balance', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.bigInt({ min: 1n, max: 10n ** 12n })), {
          minLength: 2,
          maxLength: 120,
        }),
        dateArb,
        fc.bigInt({ min: -3n, max: 3n }),
        (steps, start, delta) => {
          let date = start;
          const items = steps.map(([gap, amountMinor]) => {
            date = addDays(date, gap);
            return { dueDate: date, amountMinor };
          });
          const sum = items.reduce((acc, i) => acc + i.amountMinor, 0n);
          const result = validateCustom(sum + delta, items);
          assert.equal(result.ok, delta === 0n);
          if (result.ok)
            assert.equal(
              result.installments.reduce((acc, i) => acc + i.amountMinor, 0n),
              sum,
            );
        },
      ),
    );
  });
});
