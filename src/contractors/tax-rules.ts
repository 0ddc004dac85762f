import { roundHalfEven } from '../lib/decimal.ts';

/** What the reviewed tax profile says (null residency: never reviewed). */
export interface TaxProfile {
  residency: string | null;
  servicesInCanada: boolean | null;
  reviewed: boolean;
}

export interface Slip {
  form: 'T4A' | 'T4A-NR' | '1099-NEC';
  /** The box the fees go in; null for the T4A-NR, whose boxes the CRA guide RC4445 assigns. */
  box: string | null;
  /** Why the slip applies, in words (shown in the CSV too). */
  basis: string;
}

export interface TaxFinding {
  slips: Slip[];
  /** Regulation 105: 15 % of fees for services rendered in Canada by a non-resident. */
  withholdingMinor: bigint | null;
  notes: string[];
}

/** T4A box 048: fees for services above CAD 500.00 in the calendar year (more than, not equal). */
export const T4A_THRESHOLD_CAD_MINOR = 50_000n;
/** Regulation 105 withholding rate, percent. */
export const REGULATION_105_PERCENT = 15n;

/**
 * 1099-NEC threshold in US cents: USD 600 through tax year 2025; USD 2,000 for payments made
 * after 31 December 2025 (One Big Beautiful Bill Act, sec. 70433, amending IRC 6041(a)), indexed
 * for inflation after 2026 (not yet published, so 2,000 is kept until it is).
 */
export function form1099Threshold(year: number): bigint {
  return year <= 2025 ? 60_000n : 200_000n;
}

/**
 * Which slips the fees paid to one contractor in one currency and year call for (docs/contractors.md).
 * Amounts are compared only in the threshold's own currency: fees in another currency are flagged
 * for conversion, never converted here.
 */
export function taxFinding(
  profile: TaxProfile,
  year: number,
  currency: string,
  feesMinor: bigint,
): TaxFinding {
  const finding: TaxFinding = { slips: [], withholdingMinor: null, notes: [] };
  if (!profile.reviewed || profile.residency === null) {
    finding.notes.push(
      'tax profile not reviewed: review it (contractors.taxProfile.review) to decide the slips',
    );
    return finding;
  }
  if (profile.residency === 'CA') {
    if (currency !== 'CAD') {
      finding.notes.push(
        'fees not in CAD: convert at the Bank of Canada rate to test the CAD 500 T4A threshold',
      );
    } else if (feesMinor > T4A_THRESHOLD_CAD_MINOR) {
      finding.slips.push({ form: 'T4A', box: '048', basis: 'fees for services above CAD 500 in the year' });
    }
    return finding;
  }
  if (profile.servicesInCanada === true) {
    // Withholding applies to every payment unless the CRA waived it; a slip is required whenever
    // tax was withheld, so it applies at any amount (CRA: above CAD 500 only without withholding).
    finding.slips.push({
      form: 'T4A-NR',
      box: null,
      basis: 'fees to a non-resident for services rendered in Canada (Regulation 105)',
    });
    finding.withholdingMinor = roundHalfEven(feesMinor * REGULATION_105_PERCENT, 100n);
    if (currency !== 'CAD')
      finding.notes.push('report T4A-NR amounts in CAD: convert at the Bank of Canada rate');
    finding.notes.push('Regulation 105: withhold 15 % unless a CRA waiver (form R105) covers the payments');
  }
  if (profile.residency === 'US') {
    const threshold = form1099Threshold(year);
    if (currency !== 'USD') {
      finding.notes.push(`fees not in USD: convert to test the USD ${threshold / 100n} 1099-NEC threshold`);
    } else if (feesMinor >= threshold) {
      finding.slips.push({
        form: '1099-NEC',
        box: '1',
        basis: `nonemployee compensation of USD ${threshold / 100n} or more in the year`,
      });
    }
  }
  return finding;
}
