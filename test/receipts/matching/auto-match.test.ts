import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { autoMatchDecision } from '../../../src/receipts/matching/auto-match.ts';
import { defaultMatchSettings, type MatchSettings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

const on: MatchSettings = {
  ...defaultMatchSettings,
  autoMatch: { ...defaultMatchSettings.autoMatch, enabled: true },
};
const noise = [
  transaction({ id: 'n1', description: 'ARAL STATION 0815', amountMinor: -6420n, cardLastFour: '9999' }),
  transaction({ id: 'n2', description: 'REWE SAGT DANKE', amountMinor: -2310n, bookedDate: '2026-04-01' }),
];

describe('autoMatchDecision', () => {
  test('off by default', () => {
    assert.equal(defaultMatchSettings.autoMatch.enabled, false);
    assert.equal(autoMatchDecision(receipt(), [transaction(), ...noise], [], defaultMatchSettings), null);
  });

  test('matches when amount and card agree exactly and nothing else comes close', () => {
    assert.equal(autoMatchDecision(receipt(), [transaction(), ...noise], [], on)?.id, 'tx-1');
  });

  test('never when the card last four differ or are unknown', () => {
    assert.equal(autoMatchDecision(receipt(), [transaction({ cardLastFour: '4243' })], [], on), null);
    assert.equal(autoMatchDecision(receipt({ cardLastFour: null }), [transaction()], [], on), null);
    assert.equal(autoMatchDecision(receipt(), [transaction({ cardLastFour: null })], [], on), null);
  });

  test('never in another currency, on a pending charge, or on an uncertain reading', () => {
    const abroad = transaction({ amountMinor: -1180n, originalAmountMinor: -1250n, originalCurrency: 'USD' });
    assert.equal(autoMatchDecision(receipt({ currency: 'USD' }), [abroad], [], on), null);
    assert.equal(autoMatchDecision(receipt(), [transaction({ status: 'pending' })], [], on), null);
    // Below 0.7 no reading is enough, whatever agrees (0.7-0.9 needs the merchant too: next test).
    const unsure = { merchant: 1, date: 1, total: 0.65, currency: 1, cardLastFour: 1 };
    assert.equal(autoMatchDecision(receipt({ confidence: unsure }), [transaction()], [], on), null);
  });

  test('digits read from a text PDF (0.85) or a photo (0.72) are enough when the merchant agrees too', () => {
    const pdf = { merchant: 0.8, date: 0.9, total: 0.9, currency: 0.9, cardLastFour: 0.85 };
    const photo = { merchant: 0.68, date: 0.77, total: 0.77, currency: 0.77, cardLastFour: 0.72 };
    for (const confidence of [pdf, photo]) {
      assert.equal(autoMatchDecision(receipt({ confidence }), [transaction(), ...noise], [], on)?.id, 'tx-1');
      // Same amount and card, but a merchant that does not agree: a person decides.
      const elsewhere = transaction({ description: 'ARAL STATION 0815' });
      assert.equal(autoMatchDecision(receipt({ confidence }), [elsewhere, ...noise], [], on), null);
    }
  });

  test('never when a second candidate is nearly as good (same coffee, next day)', () => {
    const twin = transaction({ id: 'tx-2', bookedDate: '2026-05-06' });
    assert.equal(autoMatchDecision(receipt(), [transaction(), twin], [], on), null);
  });

  test('property: never auto-matches when the amount differs by a cent or the card differs', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000_000n }),
        fc.constantFrom(-1n, 1n),
        fc.boolean(),
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 6 }),
        (total, cent, changeCard, otherCard, lag) => {
          const card = '4242';
          const other = String(otherCard).padStart(4, '0');
          if (changeCard && other === card) return;
          const r = receipt({ totalMinor: total });
          const tx = transaction({
            amountMinor: changeCard ? -total : -(total + cent),
            cardLastFour: changeCard ? other : card,
            bookedDate: `2026-05-${String(4 + lag).padStart(2, '0')}`,
          });
          assert.equal(autoMatchDecision(r, [tx], [], on), null);
        },
      ),
    );
  });
});
