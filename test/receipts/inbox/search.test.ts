import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { totalCandidates } from '../../../src/receipts/inbox/search.ts';

// The totals an inbox search text may mean (decision 487), per currency exponent.
describe('inbox search: totals typed as printed', () => {
  const minorBy = (text: string) =>
    Object.fromEntries(totalCandidates(text).map((c) => [c.exponent, c.minor]));

  it('reads an amount in every exponent it fits, unsigned', () => {
    assert.deepEqual(minorBy('12'), { 0: '12', 2: '1200', 3: '12000', 4: '120000' });
    assert.deepEqual(minorBy('11,90'), { 2: '1190', 3: '11900', 4: '119000' });
    assert.deepEqual(minorBy('-11.90'), { 2: '1190', 3: '11900', 4: '119000' });
    assert.deepEqual(minorBy('1.234,56'), { 2: '123456', 3: '1234560', 4: '12345600' });
    // "1,234" groups thousands where a currency has fewer than 3 decimals.
    assert.deepEqual(minorBy('1,234'), { 0: '1234', 2: '123400', 3: '1234', 4: '12340' });
  });

  it('reads no amount in words or beyond 18 digits', () => {
    assert.deepEqual(totalCandidates('coffee'), []);
    assert.deepEqual(totalCandidates('EUR 12'), []);
    assert.deepEqual(minorBy('9'.repeat(19)), {});
  });

  it('names the currencies of each exponent; two decimals by what they are not', () => {
    const [zero] = totalCandidates('5').filter((c) => c.exponent === 0);
    assert.ok(zero && 'in' in zero.currencies && zero.currencies.in.includes('JPY'));
    const [two] = totalCandidates('5').filter((c) => c.exponent === 2);
    assert.ok(two && 'notIn' in two.currencies && two.currencies.notIn.includes('JPY'));
    assert.ok(two && 'notIn' in two.currencies && !two.currencies.notIn.includes('EUR'));
  });
});
