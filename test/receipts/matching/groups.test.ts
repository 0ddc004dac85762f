// Set suggestions of issue 26 part 1: charges that add up to a receipt, receipts that add up to a charge.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { suggestChargeSets, suggestReceiptSets } from '../../../src/receipts/matching/groups.ts';
import { suggestForReceipt } from '../../../src/receipts/matching/suggest.ts';
import { defaultMatchSettings as settings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

describe('suggestChargeSets', () => {
  const bill = receipt({ merchant: 'Trattoria Da Mario', totalMinor: 10000n, cardLastFour: null });
  const at = (id: string, amountMinor: bigint, extra = {}) =>
    transaction({ id, amountMinor, description: 'TST* TRATTORIA DA MARIO', cardLastFour: null, ...extra });

  test('a bill split over two cards: the two charges that add up to the total, explained', () => {
    const open = [at('a', -4000n), at('b', -6000n, { cardLastFour: '1111' }), at('c', -3500n)];
    assert.equal(suggestForReceipt(bill, open, [], settings).length, 0, 'no single charge fits');
    const [top] = suggestChargeSets(bill, open, [], settings);
    assert.deepEqual(top?.transactions.map((t) => t.id).sort(), ['a', 'b']);
    assert.ok((top?.score ?? 0) >= settings.suggestThreshold);
    assert.ok(top?.reasons[0]?.includes('2 charges add up'));
  });

  test('a near sum is no set, nor are charges of another merchant or weeks away', () => {
    assert.equal(suggestChargeSets(bill, [at('a', -4000n), at('b', -5999n)], [], settings).length, 0);
    const other = transaction({
      id: 'x',
      amountMinor: -6000n,
      description: 'ARAL STATION 0815',
      cardLastFour: null,
    });
    assert.equal(suggestChargeSets(bill, [at('a', -4000n), other], [], settings).length, 0);
    const late = at('l', -6000n, { bookedDate: '2026-06-20' });
    assert.equal(suggestChargeSets(bill, [at('a', -4000n), late], [], settings).length, 0);
  });
});

describe('suggestReceiptSets', () => {
  const app = (id: string, totalMinor: bigint) =>
    receipt({ id, merchant: 'Apple Distribution International Ltd.', totalMinor, cardLastFour: null });
  const charge = transaction({
    amountMinor: -1597n,
    description: 'APPLE.COM/BILL 866-712-7753',
    cardLastFour: null,
  });

  test('app-store receipts billed as one charge: the receipts that add up to it', () => {
    const [top] = suggestReceiptSets(
      charge,
      [app('r1', 299n), app('r2', 1298n), app('r3', 999n)],
      [],
      settings,
    );
    assert.deepEqual(top?.receipts.map((r) => r.id).sort(), ['r1', 'r2']);
    assert.equal(top?.transactions[0]?.id, 'tx-1');
  });

  test('the search stays bounded: three receipts at most per set', () => {
    const many = Array.from({ length: 40 }, (_, i) => app(`r${i}`, 100n + BigInt(i)));
    const sets = suggestReceiptSets(transaction({ ...charge, amountMinor: -406n }), many, [], settings);
    assert.ok(sets.every((s) => s.receipts.length <= 3));
  });
});
