import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { learnAlias } from '../../../src/receipts/matching/similarity.ts';
import {
  declineKey,
  suggestForReceipt,
  suggestForTransaction,
} from '../../../src/receipts/matching/suggest.ts';
import { defaultMatchSettings as settings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

// A monthly subscription: one invoice, five charges of the same amount to the same card.
const monthly = ['2026-02-04', '2026-03-04', '2026-04-04', '2026-05-04', '2026-06-04'].map((bookedDate, i) =>
  transaction({ id: `tx-${i}`, bookedDate, description: 'PAYPAL *SPOTIFY', amountMinor: -1099n }),
);
const invoice = receipt({
  merchant: 'Spotify AB',
  date: '2026-05-04',
  totalMinor: 1099n,
  documentType: 'invoice',
});

describe('suggestForReceipt', () => {
  test('ranks the charge of the right month first, with its score and components', () => {
    const suggestions = suggestForReceipt(invoice, monthly, [], settings);
    assert.equal(suggestions[0]?.candidate.id, 'tx-3');
    assert.ok(suggestions.length <= settings.topN);
    assert.ok(suggestions.every((s) => s.score.score >= settings.suggestThreshold));
    assert.equal(suggestions[0]?.score.components.amount, 1);
  });

  test('nothing below the threshold, and at most topN', () => {
    const unrelated = transaction({
      id: 'x',
      description: 'ARAL STATION 0815',
      amountMinor: -6420n,
      cardLastFour: '9999',
    });
    assert.deepEqual(suggestForReceipt(invoice, [unrelated], [], settings), []);
    const many = Array.from({ length: 10 }, (_, i) =>
      transaction({ id: `same-${i}`, bookedDate: '2026-05-04' }),
    );
    assert.equal(suggestForReceipt(receipt(), many, [], { ...settings, topN: 2 }).length, 2);
  });

  test('a weak alternative far below a strong match is left out', () => {
    const strong = transaction({ id: 'strong' });
    const weak = transaction({
      id: 'weak',
      bookedDate: '2026-05-12',
      amountMinor: -1400n,
      cardLastFour: null,
    });
    const both = suggestForReceipt(receipt(), [strong, weak], [], { ...settings, maxGapFromTop: 1 });
    assert.deepEqual(
      both.map((s) => s.candidate.id),
      ['strong', 'weak'],
    );
    assert.deepEqual(
      suggestForReceipt(receipt(), [strong, weak], [], settings).map((s) => s.candidate.id),
      ['strong'],
    );
  });

  test('a declined pair is never suggested again; the others still are', () => {
    const declined = new Set([declineKey(invoice.id, 'tx-3')]);
    const ids = suggestForReceipt(invoice, monthly, [], settings, declined).map((s) => s.candidate.id);
    assert.ok(!ids.includes('tx-3'));
    const again = suggestForTransaction(monthly[3] ?? transaction(), [invoice], [], settings, declined);
    assert.deepEqual(again, []);
  });

  test('ties are broken by id, so the order is stable', () => {
    const twins = [transaction({ id: 'b' }), transaction({ id: 'a' })];
    assert.deepEqual(
      suggestForReceipt(receipt(), twins, [], settings).map((s) => s.candidate.id),
      ['a', 'b'],
    );
  });

  test('a learned alias lifts a charge whose descriptor shares no word with the receipt', () => {
    // Not Deutsche Bahn: `DB` is its initials, which count on their own now (issue 26).
    const r = receipt({ merchant: 'Meta Platforms Ireland Ltd', totalMinor: 8990n, cardLastFour: null });
    const ad = transaction({ id: 'fb', description: 'FACEBK *2K4L1 DUBLIN', amountMinor: -8990n });
    const without = suggestForReceipt(r, [ad], [], settings)[0];
    const alias = learnAlias('FACEBK *7QX2P', 'Meta Platforms Ireland Ltd');
    assert.ok(alias);
    const withAlias = suggestForReceipt(r, [ad], [alias], settings)[0];
    assert.ok(withAlias && without && withAlias.score.score > without.score.score + 0.1);
    assert.ok(withAlias.score.reasons.some((x) => x.includes('learned alias')));
  });
});

describe('suggestForTransaction', () => {
  test('finds the receipt among waiting ones, the other direction of the same score', () => {
    const receipts = [
      receipt({ id: 'coffee' }),
      receipt({ id: 'dinner', merchant: 'Trattoria Da Mario', totalMinor: 8400n }),
      receipt({ id: 'other-card', cardLastFour: '1111' }),
    ];
    const suggestions = suggestForTransaction(transaction(), receipts, [], settings);
    assert.equal(suggestions[0]?.candidate.id, 'coffee');
    assert.ok(!suggestions.some((s) => s.candidate.id === 'dinner'));
  });
});
