import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { amountFor, parseHours } from '../../src/contractors/hours.ts';
import { periodStart } from '../../src/contractors/pay-period.ts';
import { form1099Threshold, taxFinding } from '../../src/contractors/tax-rules.ts';

describe('hours amounts, pay periods and tax thresholds (pure rules)', () => {
  it('amount is hours x rate within half a minor unit, exact and ties to even', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2400n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (hundredths, rate) => {
          const amount = amountFor(hundredths, rate);
          const twiceError = (amount * 100n - hundredths * rate) * 2n;
          assert.ok(twiceError <= 100n && twiceError >= -100n);
          if (twiceError === 100n || twiceError === -100n) assert.equal(amount % 2n, 0n);
        },
      ),
    );
  });

  it('parses hours strictly', () => {
    assert.equal(parseHours('7.25'), 725n);
    assert.equal(parseHours('24'), 2400n);
    for (const bad of ['0', '0.00', '24.01', '07', '.5', '1.', '1e1', ' 1']) {
      assert.throws(() => parseHours(bad), /at most 24/, bad);
    }
  });

  it('pay periods follow the cadence', () => {
    assert.equal(periodStart('weekly', '2026-09-07'), '2026-09-01');
    assert.equal(periodStart('biweekly', '2026-09-14'), '2026-09-01');
    assert.equal(periodStart('semimonthly', '2026-09-15'), '2026-09-01');
    assert.equal(periodStart('semimonthly', '2026-02-28'), '2026-02-16');
    assert.equal(periodStart('monthly', '2026-02-28'), '2026-02-01');
  });

  it('thresholds: T4A above CAD 500, 1099-NEC at USD 600 to 2025 and 2,000 from 2026', () => {
    const ca = { residency: 'CA', servicesInCanada: true, reviewed: true };
    const us = { residency: 'US', servicesInCanada: false, reviewed: true };
    assert.deepEqual(taxFinding(ca, 2025, 'CAD', 50_000n).slips, []);
    assert.equal(taxFinding(ca, 2025, 'CAD', 50_001n).slips[0]?.form, 'T4A');
    assert.deepEqual(taxFinding(ca, 2025, 'USD', 900_000n).slips, []);
    assert.equal(form1099Threshold(2025), 60_000n);
    assert.equal(form1099Threshold(2026), 200_000n);
    assert.deepEqual(taxFinding(us, 2025, 'USD', 59_999n).slips, []);
    assert.equal(taxFinding(us, 2025, 'USD', 60_000n).slips[0]?.form, '1099-NEC');
    assert.deepEqual(taxFinding(us, 2026, 'USD', 199_999n).slips, []);
    assert.equal(taxFinding(us, 2026, 'USD', 200_000n).slips[0]?.form, '1099-NEC');
    const nr = taxFinding({ residency: 'FR', servicesInCanada: true, reviewed: true }, 2025, 'CAD', 10_001n);
    assert.deepEqual([nr.slips[0]?.form, nr.withholdingMinor], ['T4A-NR', 1_500n]);
  });
});
