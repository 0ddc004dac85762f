// Foreign charges without the original amount (issue 26 part 3): the rate of the charge's date from
// the stored reference tables, then the organization's implied rates, then the bundled table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  minorUnitRate,
  type RateSources,
  type ReferenceRates,
  rateForCharge,
} from '../../../src/receipts/matching/reference-rates.ts';
import { scoreMatch } from '../../../src/receipts/matching/score.ts';
import { defaultMatchSettings, type MatchSettings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

const table = (date: string, perEur: Record<string, number>): ReferenceRates => ({
  date,
  source: 'ECB',
  perEur: { EUR: 1, ...perEur },
});

// EUR/USD moved from 1.05 to 1.25 over the year; the bundled 1.16 is between.
const tables = [table('2026-03-02', { USD: 1.05 }), table('2026-09-01', { USD: 1.25 })];
const settings: MatchSettings = { ...defaultMatchSettings, datedRates: tables };
const sources = (over: Partial<RateSources> = {}): RateSources => ({
  dated: tables,
  datedMaxAgeDays: 5,
  implied: [],
  impliedMaxAgeDays: 183,
  bundled: defaultMatchSettings.referenceRates,
  ...over,
});

describe('the rate of the charge date', () => {
  test('the table of the date, or the nearest earlier within a few days; never a later one', () => {
    assert.equal(rateForCharge(sources(), 'EUR', 'USD', '2026-03-02')?.rate, 1.05);
    const weekend = rateForCharge(sources(), 'EUR', 'USD', '2026-03-06');
    assert.equal(weekend?.kind, 'dated');
    assert.equal(weekend?.date, '2026-03-02');
    // Too old: the bundled table answers, and says so.
    const old = rateForCharge(sources(), 'EUR', 'USD', '2026-03-09');
    assert.equal(old?.kind, 'bundled');
    // The day before the first table: not the later table either.
    assert.equal(rateForCharge(sources(), 'EUR', 'USD', '2026-03-01')?.kind, 'bundled');
    // Crossed through the euro, both directions.
    const inverse = rateForCharge(sources(), 'USD', 'EUR', '2026-09-01')?.rate ?? 0;
    assert.ok(Math.abs(inverse - 1 / 1.25) < 1e-12);
  });

  test('a receipt in euros charged in dollars scores by the rate of its date, and the reason names it', () => {
    // €100 charged $126.50 on 2026-09-02 (1.25 plus a 1.2 % fee): near the September rate,
    // 9 % above March's and the bundled 1.16.
    const r = receipt({ currency: 'EUR', totalMinor: 10000n, date: '2026-09-01' });
    const tx = transaction({ currency: 'USD', amountMinor: -12650n, bookedDate: '2026-09-02' });
    const s = scoreMatch(r, tx, [], settings);
    assert.ok((s.components.amount ?? 0) >= 0.6, s.reasons.join('; '));
    assert.ok(
      s.reasons.some((x) => x.includes('reference rates (ECB) of 2026-09-01')),
      s.reasons.join('; '),
    );
    // Booked in March, the same charge is 20 % above March's rate: only the tip band's weak value.
    const march = scoreMatch(r, { ...tx, bookedDate: '2026-03-03' }, [], settings);
    assert.ok((march.components.amount ?? 1) <= 0.4, march.reasons.join('; '));
    assert.ok(march.reasons.some((x) => x.includes('(tip, reference rates (ECB) of 2026-03-02)')));
    // Below the rate by as much: nothing.
    const below = scoreMatch(r, { ...tx, amountMinor: -10000n }, [], settings);
    assert.equal(below.components.amount, 0, below.reasons.join('; '));
    // Without stored tables the bundled table's wider band still accepts it, at a lower value.
    const bundled = scoreMatch(r, tx, [], defaultMatchSettings);
    assert.ok(bundled.reasons.some((x) => x.includes('bundled rates of 2025-11-28')));
    assert.ok((bundled.components.amount ?? 0) < (s.components.amount ?? 0));
  });

  test('currencies with other minor units: a yen has none, a euro has cents', () => {
    assert.equal(minorUnitRate(0.005, 'JPY', 'EUR'), 0.5);
    // ¥10,000 charged €58.50 with EUR/JPY 172: rate of the day 58.14, +0.6 %.
    const r = receipt({ currency: 'JPY', totalMinor: 10000n, date: '2026-09-01' });
    const tx = transaction({ amountMinor: -5850n, bookedDate: '2026-09-01' });
    const withJpy = { ...settings, datedRates: [table('2026-09-01', { JPY: 172 })] };
    assert.ok((scoreMatch(r, tx, [], withJpy).components.amount ?? 0) >= 0.7);
  });
});

describe('rates implied by confirmed matches', () => {
  const implied = [
    { from: 'THB', to: 'EUR', rate: 0.0262, date: '2026-08-10' },
    { from: 'THB', to: 'EUR', rate: 0.0264, date: '2026-08-20' },
    // A tipped bill: the median keeps it out.
    { from: 'THB', to: 'EUR', rate: 0.0331, date: '2026-08-25' },
  ];

  test('used when no reference table has the currency, the median of the nearest, with its date', () => {
    const found = rateForCharge(sources({ implied }), 'THB', 'EUR', '2026-08-28');
    assert.equal(found?.kind, 'implied');
    assert.equal(found?.rate, 0.0264);
    assert.equal(found?.date, '2026-08-20');
    assert.match(found?.label ?? '', /your 3 nearest confirmed matches of 2026-08-20/);
    // The other direction of the pair, and nothing beyond the age limit.
    assert.ok(
      Math.abs((rateForCharge(sources({ implied }), 'EUR', 'THB', '2026-08-28')?.rate ?? 0) - 1 / 0.0264) <
        1e-9,
    );
    assert.equal(rateForCharge(sources({ implied }), 'THB', 'EUR', '2027-06-01'), undefined);
  });

  test('a dated reference rate wins over an implied one', () => {
    const both = sources({ implied: [{ from: 'USD', to: 'EUR', rate: 0.5, date: '2026-09-01' }] });
    assert.equal(rateForCharge(both, 'USD', 'EUR', '2026-09-01')?.kind, 'dated');
  });

  test('a Thai receipt finds its euro charge through the implied rate', () => {
    const r = receipt({ currency: 'THB', totalMinor: 150000n, date: '2026-08-27' });
    const tx = transaction({ amountMinor: -3990n, bookedDate: '2026-08-28' });
    const s = scoreMatch(r, tx, [], { ...settings, impliedRates: implied });
    assert.ok((s.components.amount ?? 0) >= 0.45, s.reasons.join('; '));
    assert.ok(s.reasons.some((x) => x.includes('confirmed matches of 2026-08-20')));
    assert.equal(scoreMatch(r, tx, [], settings).components.amount, 0.3, 'THB is in no table');
  });
});
