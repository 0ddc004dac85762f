import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatMinor, guessDecimalSeparator, parseAmount } from '../../../src/books/statements/money.ts';

const CURRENCIES = ['EUR', 'USD', 'JPY', 'HUF', 'BHD', 'KWD', 'CHF'] as const;
const EXPONENT: Record<(typeof CURRENCIES)[number], number> = {
  EUR: 2,
  USD: 2,
  JPY: 0,
  HUF: 2,
  BHD: 3,
  KWD: 3,
  CHF: 2,
};

describe('amount parser (property)', () => {
  it('formatting a bigint with either decimal convention and any grouping, then parsing, is the identity', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(',' as const, '.' as const),
        fc.constantFrom('', 'thousands', ' ', "'", '\u00a0'),
        (minor, currency, decimal, grouping) => {
          const group = grouping === 'thousands' ? (decimal === ',' ? '.' : ',') : grouping;
          const text = formatMinor(minor, EXPONENT[currency], decimal, group);
          const parsed = parseAmount(text, decimal, currency);
          assert.deepEqual(parsed, { ok: true, minor }, text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a trailing minus, parentheses and a currency code mean the same number', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom(',' as const, '.' as const),
        (minor, decimal) => {
          const text = formatMinor(minor, 2, decimal, decimal === ',' ? '.' : ',');
          assert.deepEqual(parseAmount(`${text}-`, decimal, 'EUR'), { ok: true, minor: -minor });
          assert.deepEqual(parseAmount(`(${text})`, decimal, 'EUR'), { ok: true, minor: -minor });
          assert.deepEqual(parseAmount(`EUR ${text}`, decimal, 'EUR'), { ok: true, minor });
          assert.deepEqual(parseAmount(`+${text} €`, decimal, 'EUR'), { ok: true, minor });
        },
      ),
    );
  });

  it('text that is not a number is never read as one', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom(',' as const, '.' as const),
        (s, decimal) => {
          fc.pre(/[^\d\s.,'+\-()€$£¥A-Z\u00a0\u202f]/.test(s));
          assert.equal(parseAmount(s, decimal, 'EUR').ok, false, s);
        },
      ),
    );
  });

  it('the separator guess reads unambiguous samples right', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(',' as const, '.' as const),
        (values, decimal) => {
          // A value with cents that are not all zero cannot be mistaken for grouping.
          const samples = values.map((v) => formatMinor(v * 100n + 7n, 2, decimal, ''));
          assert.equal(guessDecimalSeparator(samples, decimal === ',' ? '.' : ','), decimal);
        },
      ),
    );
  });
});
