import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dateComponent, expectedChargeDate } from '../../../src/receipts/matching/components.ts';
import { scoreMatch } from '../../../src/receipts/matching/score.ts';
import { suggestForReceipt } from '../../../src/receipts/matching/suggest.ts';
import { defaultMatchSettings as settings } from '../../../src/receipts/matching/types.ts';
import { receipt, transaction } from './factories.ts';

// Issue 26: a subscription invoice (a service period of a month or more) is charged at the start
// of its period; the same charge recurs at its end, and that one is the next period's (decision 431).

const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const invoice = (date: string | null, servicePeriod: { start: string; end: string } | null = OCTOBER) =>
  receipt({
    merchant: 'Notion Labs Inc',
    date,
    totalMinor: 1000n,
    documentType: 'invoice',
    cardLastFour: null,
    servicePeriod,
  });
const charge = (id: string, bookedDate: string) =>
  transaction({ id, bookedDate, amountMinor: -1000n, cardLastFour: null, description: 'NOTION LABS INC' });

describe('service period: the date component', () => {
  test('dated at the period end: the start-of-period charge is the expected one', () => {
    const start = dateComponent(invoice('2026-10-31'), charge('a', '2026-10-02'), settings);
    assert.equal(start.value, 0.97);
    assert.equal(start.reason, 'charged at the start of the service period (booked 1 d after it began)');
    const next = dateComponent(invoice('2026-10-31'), charge('b', '2026-11-01'), settings);
    assert.equal(next.value, 0.3);
    assert.match(
      next.reason ?? '',
      /end of the service period 2026-10-01 to 2026-10-31 \(the next period's charge\?\)/,
    );
  });

  test('no printed date at all: the period alone decides', () => {
    assert.equal(dateComponent(invoice(null), charge('a', '2026-10-01'), settings).value, 1);
  });

  test('invoiced ahead of the period: a charge on the issue date counts as well as one at the start', () => {
    const c = dateComponent(invoice('2026-09-25'), charge('a', '2026-09-25'), settings);
    assert.equal(c.value, 1);
    assert.match(c.reason ?? '', /invoiced 6 d ahead of its service period/);
  });

  test('invoiced in the first half of the period: the issue date counts too, an issue date at the end does not', () => {
    const c = dateComponent(invoice('2026-10-07'), charge('a', '2026-10-08'), settings);
    assert.equal(c.value, 0.97);
    assert.match(c.reason ?? '', /invoiced 6 d into its service period/);
    assert.equal(dateComponent(invoice('2026-10-29'), charge('b', '2026-10-30'), settings).value, 0.3);
  });

  test('issued after the period ended (billed in arrears): the issue date rule as for any receipt', () => {
    const r = invoice('2026-11-03');
    assert.equal(dateComponent(r, charge('a', '2026-11-04'), settings).value, 0.97);
    assert.equal(dateComponent(r, charge('b', '2026-10-01'), settings).value, 0);
    assert.equal(expectedChargeDate(r, settings), '2026-11-03');
  });

  test('a short period (a stay, a rental) keeps the receipt date rule', () => {
    const stay = invoice('2026-10-05', { start: '2026-10-01', end: '2026-10-05' });
    assert.equal(dateComponent(stay, charge('a', '2026-10-05'), settings).reason, 'booked the same day');
    assert.equal(expectedChargeDate(stay, settings), '2026-10-05');
  });

  test('the window to search is centred on the period start', () => {
    assert.equal(expectedChargeDate(invoice('2026-10-31'), settings), '2026-10-01');
    assert.equal(expectedChargeDate(invoice('2026-10-31', null), settings), '2026-10-31');
  });
});

describe('service period: suggestions', () => {
  test('the start-of-period charge is suggested first, the next period charge below it', () => {
    const open = [charge('next', '2026-11-01'), charge('this', '2026-10-01'), charge('before', '2026-09-01')];
    const ranked = suggestForReceipt(invoice('2026-10-31'), open, [], settings, new Set());
    assert.equal(ranked[0]?.candidate.id, 'this');
    assert.ok(
      ranked[0]?.score.reasons.some((r) => r.startsWith('charged at the start of the service period')),
    );
    const next = scoreMatch(invoice('2026-10-31'), charge('next', '2026-11-01'), [], settings);
    assert.ok(
      (ranked[0]?.score.score ?? 0) - next.score >= 0.1,
      `${ranked[0]?.score.score} vs ${next.score}`,
    );
  });

  test('without the period, the same invoice goes to the next charge (what issue 26 saw)', () => {
    const open = [charge('next', '2026-11-01'), charge('this', '2026-10-01')];
    const ranked = suggestForReceipt(invoice('2026-10-31', null), open, [], settings, new Set());
    assert.equal(ranked[0]?.candidate.id, 'next');
  });
});
