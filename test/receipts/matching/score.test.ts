import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { scoreMatch } from '../../../src/receipts/matching/score.ts';
import { defaultMatchSettings as settings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

const score = (r = receipt(), t = transaction()) => scoreMatch(r, t, [], settings);

describe('amount', () => {
  test('equal to the cent in the same currency is exact', () => {
    const s = score();
    assert.equal(s.components.amount, 1);
    assert.equal(s.exactAmount, true);
    assert.ok(s.reasons.includes('amount equal'));
  });

  test('one cent off is close but never exact', () => {
    const s = score(receipt(), transaction({ amountMinor: -1251n }));
    assert.equal(s.exactAmount, false);
    assert.ok((s.components.amount ?? 0) > 0.5 && (s.components.amount ?? 1) < 1);
  });

  test('a restaurant charge up to 30 % above the total is a tip; more is a different amount', () => {
    const tip = score(receipt({ totalMinor: 10000n }), transaction({ amountMinor: -11500n })).components
      .amount;
    assert.ok(tip !== null && tip > 0.4 && tip < 0.8, String(tip));
    assert.equal(
      score(receipt({ totalMinor: 10000n }), transaction({ amountMinor: -14000n })).components.amount,
      0,
    );
    assert.equal(
      score(receipt({ totalMinor: 10000n }), transaction({ amountMinor: -8000n })).components.amount,
      0,
    );
  });

  test('abroad: the original amount and currency reported by the bank decide', () => {
    const abroad = transaction({ amountMinor: -1180n, originalAmountMinor: -1250n, originalCurrency: 'USD' });
    const s = score(receipt({ currency: 'USD' }), abroad);
    assert.equal(s.components.amount, 0.95);
    assert.equal(s.components.currency, 0.9);
    assert.equal(s.exactAmount, false, 'an FX charge is never exact: the booked amount was converted');
    assert.equal(score(receipt({ currency: 'USD', totalMinor: 1300n }), abroad).components.amount, 0);
  });

  test('abroad without an original amount: an approximate rate and a ±3 % band', () => {
    const rates = { ...settings, approximateRates: { 'USD/EUR': 0.92 } };
    const r = receipt({ currency: 'USD', totalMinor: 10000n });
    const near = scoreMatch(r, transaction({ amountMinor: -9300n }), [], rates).components.amount;
    assert.ok(near !== null && near >= 0.5, String(near));
    assert.equal(scoreMatch(r, transaction({ amountMinor: -8000n }), [], rates).components.amount, 0);
    const noTable = { ...settings, referenceRates: null };
    assert.equal(scoreMatch(r, transaction({ amountMinor: -9300n }), [], noTable).components.amount, 0.3);
  });

  test('no configured rate: the dated reference table, a wider band, lower values (issue 26)', () => {
    // €5.80 charged $6.31 and £57.95 charged $76.10, the examples (USD card, no original).
    const usd = (amountMinor: bigint) => transaction({ currency: 'USD', amountMinor });
    const eur = receipt({ currency: 'EUR', totalMinor: 580n });
    const gbp = receipt({ currency: 'GBP', totalMinor: 5795n });
    for (const [r, tx] of [
      [eur, usd(-631n)],
      [gbp, usd(-7610n)],
    ] as const) {
      const s = scoreMatch(r, tx, [], settings);
      assert.ok(s.components.amount !== null && s.components.amount >= 0.45, s.reasons.join('; '));
      assert.ok(s.reasons.some((x) => x.includes('bundled rates of')));
      assert.equal(s.exactAmount, false);
    }
    assert.equal(scoreMatch(eur, usd(-1000n), [], settings).components.amount, 0);
    // A configured rate wins over the table.
    const configured = { ...settings, approximateRates: { 'EUR/USD': 1.5 } };
    assert.equal(scoreMatch(eur, usd(-631n), [], configured).components.amount, 0);
    // An unknown currency keeps the flat value.
    assert.equal(scoreMatch(receipt({ currency: 'XYZ' }), usd(-631n), [], settings).components.amount, 0.3);
  });

  test('money direction: a refund receipt wants money in, a purchase money out', () => {
    assert.equal(score(receipt(), transaction({ amountMinor: 1250n })).components.amount, 0);
    const refund = receipt({ documentType: 'refund' });
    assert.equal(score(refund, transaction({ amountMinor: 1250n })).components.amount, 1);
    assert.equal(score(refund, transaction()).components.amount, 0);
  });

  test('no total read: no amount evidence', () => {
    assert.equal(score(receipt({ totalMinor: null })).components.amount, null);
  });
});

describe('date', () => {
  test('decays from the receipt date over the typical window, then faster, then nothing', () => {
    const at = (bookedDate: string) => score(receipt(), transaction({ bookedDate })).components.date ?? -1;
    const days = ['2026-05-04', '2026-05-05', '2026-05-09', '2026-05-12', '2026-05-18', '2026-05-19'];
    const values = days.map(at);
    for (let i = 1; i < values.length; i++) assert.ok((values[i] ?? 0) < (values[i - 1] ?? 0), values.join());
    assert.equal(values[0], 1);
    assert.equal(at('2026-06-04'), 0);
    assert.ok(at('2026-05-03') > 0 && at('2026-05-03') < at('2026-05-09'));
    assert.equal(at('2026-04-20'), 0);
  });

  test('the window is a setting', () => {
    const wide = { ...settings, maxBookingDays: 40 };
    assert.ok(
      (scoreMatch(receipt(), transaction({ bookedDate: '2026-05-30' }), [], wide).components.date ?? 0) > 0,
    );
  });

  test('no date read: no date evidence', () => {
    assert.equal(score(receipt({ date: null })).components.date, null);
  });
});

describe('card, currency and order number', () => {
  test('the same last four is strong evidence; a different one is a strong negative', () => {
    const same = score();
    const other = score(receipt(), transaction({ cardLastFour: '1111' }));
    const unknown = score(receipt({ cardLastFour: null }));
    assert.equal(same.sameCard, true);
    assert.equal(other.components.card, 0);
    assert.ok(other.reasons.some((r) => r.includes('1111')));
    assert.ok(same.score > unknown.score && unknown.score > other.score * 1.5);
    assert.ok(other.score < settings.suggestThreshold);
  });

  test('a different card read with low confidence is a weaker negative', () => {
    const sure = score(receipt(), transaction({ cardLastFour: '1111' })).score;
    const unsure = score(
      receipt({ confidence: { merchant: 1, date: 1, total: 1, currency: 1, cardLastFour: 0.5 } }),
      transaction({ cardLastFour: '1111' }),
    ).score;
    assert.ok(unsure > sure);
  });

  test('currency: same, the original one, or another', () => {
    assert.equal(score().components.currency, 1);
    assert.equal(score(receipt({ currency: 'GBP' })).components.currency, 0.1);
    assert.equal(score(receipt({ currency: null })).components.currency, null);
  });

  test('the order number in the descriptor lifts the score; its absence proves nothing', () => {
    const r = receipt({ merchant: 'Zalando SE', orderNumber: '10304567890', date: null, cardLastFour: null });
    const withOrder = score(r, transaction({ description: 'ZALANDO SE 10304567890' }));
    const without = score(r, transaction({ description: 'ZALANDO SE BERLIN' }));
    assert.equal(withOrder.components.order, 1);
    assert.equal(without.components.order, null);
    assert.ok(withOrder.score > without.score + 0.1);
    assert.ok(withOrder.reasons[0]?.startsWith('order 10304567890'));
  });
});

describe('the whole score', () => {
  test('stays within 0..1 and explains itself, supporting evidence first', () => {
    const s = score();
    assert.ok(s.score > 0.9 && s.score <= 1);
    assert.deepEqual(s.reasons, [
      'amount equal',
      'card ••4242',
      'merchant similarity 1.00',
      'booked 1 d after',
    ]);
    const bad = score(
      receipt(),
      transaction({ amountMinor: -99999n, bookedDate: '2026-08-01', cardLastFour: '9999' }),
    );
    assert.ok(bad.score >= 0 && bad.score < 0.2);
    assert.deepEqual(bad.reasons.slice(-3), [
      'amount differs',
      'card ••4242 on receipt, ••9999 charged',
      'booked 89 d from the receipt date',
    ]);
  });

  test('a cash receipt is unlikely to have a card transaction', () => {
    assert.ok(
      score(receipt({ paymentMethod: 'Cash', cardLastFour: null })).score < settings.suggestThreshold + 0.05,
    );
  });
});

test('property: any pair scores a finite 0..1 with components in 0..1', () => {
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
  const day = fc.integer({ min: 1, max: 28 }).map((d) => `2026-05-${String(d).padStart(2, '0')}`);
  const confidence = fc.record({
    merchant: fc.double({ min: 0, max: 1, noNaN: true }),
    date: fc.double({ min: 0, max: 1, noNaN: true }),
    total: fc.double({ min: 0, max: 1, noNaN: true }),
    currency: fc.double({ min: 0, max: 1, noNaN: true }),
    cardLastFour: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  fc.assert(
    fc.property(
      fc.record({
        merchant: maybe(fc.constantFrom('Blue Bottle Coffee', 'Spotify AB', 'REWE Markt GmbH', '', '***')),
        date: maybe(day),
        totalMinor: maybe(fc.bigInt({ min: 0n, max: 10n ** 12n })),
        currency: maybe(fc.constantFrom('EUR', 'USD')),
        cardLastFour: maybe(fc.constantFrom('4242', '1111')),
        paymentMethod: maybe(fc.constantFrom('visa', 'cash', 'paypal')),
        orderNumber: maybe(fc.constantFrom('10304567890', 'A1')),
        documentType: fc.constantFrom('receipt' as const, 'invoice' as const, 'refund' as const),
        confidence,
      }),
      fc.record({
        bookedDate: day,
        amountMinor: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        currency: fc.constantFrom('EUR', 'USD'),
        cardLastFour: maybe(fc.constantFrom('4242', '1111')),
        description: fc.constantFrom(
          'SQ *BLUE BOTTLE COF',
          'PAYPAL *SPOTIFY',
          '',
          '#### 1234',
          'ZALANDO 10304567890',
        ),
      }),
      (r, t) => {
        const s = score(receipt(r), transaction(t));
        assert.ok(Number.isFinite(s.score) && s.score >= 0 && s.score <= 1, String(s.score));
        for (const v of Object.values(s.components)) assert.ok(v === null || (v >= 0 && v <= 1));
      },
    ),
  );
});
