import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvoicingError } from '../../src/invoicing/errors.ts';
import {
  addMinor,
  currencyExponent,
  formatMinor,
  formatMoneyForDisplay,
  formatSignedMinor,
  isMinorString,
  isSupportedCurrency,
  MAX_MINOR,
  parseCurrency,
  parseMinor,
  parseSignedMinor,
  subtractMinor,
  sumMinor,
  supportedCurrencies,
} from '../../src/invoicing/money.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvoicingError) return error.code;
    throw error;
  }
  return 'no error';
};

describe('minor-unit strings', () => {
  test('round-trips every amount from 0 to the 18-digit maximum', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_MINOR }), (amount) => {
        assert.equal(parseMinor(formatMinor(amount)), amount);
        assert.ok(isMinorString(formatMinor(amount)));
      }),
    );
  });

  test('accepts canonical strings at the bounds', () => {
    assert.equal(parseMinor('0'), 0n);
    assert.equal(parseMinor('12345'), 12345n);
    assert.equal(parseMinor('999999999999999999'), MAX_MINOR);
  });

  test('refuses non-canonical or out-of-range strings, naming the field', () => {
    for (const bad of [
      '',
      '-1',
      '+1',
      '01',
      '00',
      '1.0',
      '1e3',
      ' 1',
      '1 ',
      '0x10',
      '1000000000000000000',
      '١٢',
    ]) {
      assert.equal(
        code(() => parseMinor(bad)),
        'invalid_amount',
        JSON.stringify(bad),
      );
    }
    assert.throws(
      () => parseMinor('x', 'totalMinor'),
      (error: unknown) => {
        return error instanceof InvoicingError && error.field === 'totalMinor';
      },
    );
    assert.equal(isMinorString(12), false);
  });

  test('signed variant accepts negatives but not "-0"', () => {
    assert.equal(parseSignedMinor('-250'), -250n);
    assert.equal(
      code(() => parseSignedMinor('-0')),
      'invalid_amount',
    );
    assert.equal(formatSignedMinor(-MAX_MINOR), '-999999999999999999');
    assert.equal(
      code(() => formatSignedMinor(MAX_MINOR + 1n)),
      'amount_overflow',
    );
  });

  test('formatMinor refuses what the parser would refuse', () => {
    assert.equal(
      code(() => formatMinor(-1n)),
      'invalid_amount',
    );
    assert.equal(
      code(() => formatMinor(MAX_MINOR + 1n)),
      'amount_overflow',
    );
  });
});

describe('BigInt helpers', () => {
  test('sum is exact and overflow is an error, not a wrap or a float', () => {
    assert.equal(sumMinor([]), 0n);
    assert.equal(sumMinor([1n, 2n, 3n]), 6n);
    assert.equal(sumMinor([MAX_MINOR - 1n, 1n]), MAX_MINOR);
    assert.equal(
      code(() => addMinor(MAX_MINOR, 1n)),
      'amount_overflow',
    );
    assert.equal(
      code(() => sumMinor([5n, -1n])),
      'invalid_amount',
    );
    assert.equal(
      code(() => subtractMinor(1n, 2n)),
      'invalid_amount',
    );
  });

  test('sum equals the Number sum for small amounts and stays exact beyond 2^53', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n }), { maxLength: 50 }), (amounts) => {
        const total = sumMinor(amounts);
        assert.equal(
          total,
          amounts.reduce((a, b) => a + b, 0n),
        );
      }),
    );
    assert.equal(sumMinor([9007199254740993n, 1n]), 9007199254740994n);
  });
});

describe('currencies', () => {
  test('exponents of the common and the odd ones', () => {
    assert.equal(currencyExponent('USD'), 2);
    assert.equal(currencyExponent('EUR'), 2);
    assert.equal(currencyExponent('CAD'), 2);
    assert.equal(currencyExponent('GBP'), 2);
    assert.equal(currencyExponent('JPY'), 0);
    assert.equal(currencyExponent('KWD'), 3);
    assert.equal(currencyExponent('BHD'), 3);
  });

  test('only uppercase ISO codes from the table, no prototype keys', () => {
    assert.ok(isSupportedCurrency('CAD'));
    for (const bad of ['cad', 'Cad', 'XXX', '', 'toString', '__proto__', 'constructor', 42]) {
      assert.equal(isSupportedCurrency(bad), false, String(bad));
    }
    assert.equal(
      code(() => parseCurrency('usd', 'currency')),
      'unsupported_currency',
    );
    assert.ok(supportedCurrencies().every((c) => /^[A-Z]{3}$/.test(c)));
  });

  test('display formatting uses the exponent and groups thousands', () => {
    assert.equal(formatMoneyForDisplay('CAD', 123450n), 'CAD 1,234.50');
    assert.equal(formatMoneyForDisplay('CAD', 5n), 'CAD 0.05');
    assert.equal(formatMoneyForDisplay('CAD', 0n), 'CAD 0.00');
    assert.equal(formatMoneyForDisplay('JPY', 1234567n), 'JPY 1,234,567');
    assert.equal(formatMoneyForDisplay('KWD', 1235n), 'KWD 1.235');
    assert.equal(formatMoneyForDisplay('USD', -100000n), 'USD -1,000.00');
    assert.equal(formatMoneyForDisplay('EUR', MAX_MINOR), 'EUR 9,999,999,999,999,999.99');
  });

  test('display digits read back to the same amount', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...supportedCurrencies()),
        fc.bigInt({ min: 0n, max: MAX_MINOR }),
        (c, amount) => {
          const shown = formatMoneyForDisplay(c, amount);
          assert.ok(shown.startsWith(`${c} `));
          assert.equal(BigInt(shown.slice(4).replace(/[,.]/g, '')), amount);
        },
      ),
    );
  });
});
