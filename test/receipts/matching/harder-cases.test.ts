// Scoring of the harder cases of issue 26: high tips, initials descriptors, aggregator receipts,
// short prefixes, monthly series kept from auto-matching.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { autoMatchDecision } from '../../../src/receipts/matching/auto-match.ts';
import { scoreMatch } from '../../../src/receipts/matching/score.ts';
import { isAbbreviation, merchantSimilarity } from '../../../src/receipts/matching/similarity.ts';
import { suggestForReceipt } from '../../../src/receipts/matching/suggest.ts';
import { defaultMatchSettings, type MatchSettings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

describe('tips', () => {
  test('a 30 % tip is still a tip by default', () => {
    const s = scoreMatch(
      receipt({ totalMinor: 10000n }),
      transaction({ amountMinor: -13000n }),
      [],
      defaultMatchSettings,
    );
    assert.ok((s.components.amount ?? 0) > 0, s.reasons.join('; '));
    assert.ok(s.reasons.some((r) => r.includes('tip')));
  });

  test('40 % above the total is not a tip', () => {
    const s = scoreMatch(
      receipt({ totalMinor: 10000n }),
      transaction({ amountMinor: -14000n }),
      [],
      defaultMatchSettings,
    );
    assert.equal(s.components.amount, 0);
  });
});

describe('abbreviations', () => {
  test('initials and syllables of the brand, every word represented in order', () => {
    assert.ok(isAbbreviation('sgc', ['sightglass', 'coffee']));
    assert.ok(isAbbreviation('dtf', ['din', 'tai', 'fung']));
    assert.ok(isAbbreviation('lsf', ['legal', 'sea', 'foods']));
    assert.ok(!isAbbreviation('sf', ['legal', 'sea', 'foods']), 'a word is missing');
    assert.ok(!isAbbreviation('fsl', ['legal', 'sea', 'foods']), 'out of order');
    assert.ok(!isAbbreviation('sgc', ['sightglass']), 'a one-word name has no initials');
    assert.ok(!isAbbreviation('dtfgxyz', ['din', 'tai', 'fung']), 'too long to be a code');
  });

  test('an initials descriptor is merchant evidence', () => {
    assert.ok(merchantSimilarity('Sightglass Coffee', 'SGC 7TH ST 0003', []) >= 0.8);
    assert.ok(merchantSimilarity('Din Tai Fung', 'DTF GLENDALE 0051', []) >= 0.8);
    assert.ok(merchantSimilarity('Legal Sea Foods', 'LSF LOGAN TERMINAL B', []) >= 0.8);
    assert.ok(merchantSimilarity('Legal Sea Foods', 'SHELL 0815', []) < 0.5);
  });

  test('the right initials charge beats an unrelated merchant of the same amount and day', () => {
    const r = receipt({ merchant: 'Din Tai Fung', cardLastFour: null, totalMinor: 8450n });
    const ranked = suggestForReceipt(
      r,
      [
        transaction({
          id: 'other',
          description: 'ZUR LETZTEN INSTANZ',
          amountMinor: -8450n,
          cardLastFour: null,
        }),
        transaction({ id: 'dtf', description: 'DTF GLENDALE 0051', amountMinor: -8450n, cardLastFour: null }),
      ],
      [],
      defaultMatchSettings,
    );
    assert.equal(ranked[0]?.candidate.id, 'dtf');
  });
});

describe('aggregators and short prefixes', () => {
  test('a PayPal receipt matches a PAYPAL * charge: the prefix is what the receipt prints', () => {
    assert.ok(merchantSimilarity('PayPal Europe S.à r.l. et Cie, S.C.A.', 'PAYPAL *ETSY', []) >= 0.8);
  });

  test('"pay" is not "paypal": a short word does not stand for a longer one', () => {
    assert.ok(merchantSimilarity('PayPal Europe S.à r.l. et Cie, S.C.A.', 'T-MOBILE*AUTO PAY', []) < 0.5);
  });

  test('a descriptor cut by the bank still matches by its last word', () => {
    assert.ok(merchantSimilarity('Trattoria Da Mario', 'TST* TRATTORIA DA MAR', []) >= 0.9);
  });
});

describe('auto-match and monthly series', () => {
  const on: MatchSettings = {
    ...defaultMatchSettings,
    autoMatch: { ...defaultMatchSettings.autoMatch, enabled: true },
  };
  test('no auto-match when the same amount went to the same account within weeks (which month is it?)', () => {
    const r = receipt({ merchant: 'Figma Inc', date: '2026-05-04' });
    const now = transaction({ id: 'may', description: 'FIGMA MONTHLY RENEWAL', bookedDate: '2026-05-04' });
    const before = transaction({ id: 'apr', description: 'FIGMA MONTHLY RENEWAL', bookedDate: '2026-04-04' });
    assert.equal(autoMatchDecision(r, [now], [], on)?.id, 'may');
    assert.equal(autoMatchDecision(r, [now, before], [], on), null);
    assert.equal(suggestForReceipt(r, [now, before], [], on)[0]?.candidate.id, 'may');
  });
});
