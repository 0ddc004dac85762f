import { ISO4217_MINOR_UNITS } from '../../lib/iso4217.ts';
import { typedAmountToMinor } from '../../lib/typed-amount.ts';

/**
 * A total the inbox search text may mean: its minor units, unsigned, for the receipts whose
 * currency has `exponent` decimals. Those are named (`in`) or, for two decimals, described by the
 * currencies they are not (`notIn`), so a receipt whose currency is unknown counts as two decimals,
 * as most do.
 */
export interface TotalCandidate {
  minor: string;
  exponent: number;
  currencies: { in: readonly string[] } | { notIn: readonly string[] };
}

const CODES_BY_EXPONENT = new Map<number, string[]>();
for (const [code, exponent] of Object.entries(ISO4217_MINOR_UNITS)) {
  CODES_BY_EXPONENT.set(exponent, [...(CODES_BY_EXPONENT.get(exponent) ?? []), code]);
}

/**
 * The totals the search text may mean, one per currency exponent in which it reads as an amount
 * typed as printed ("11,90", "11.90", "1.234,56", "12"); none when it is no amount. The sign is
 * dropped: a person looks for "42" and means the credit note of -42 too.
 */
export function totalCandidates(text: string): TotalCandidate[] {
  const candidates: TotalCandidate[] = [];
  for (const [exponent, currencies] of CODES_BY_EXPONENT) {
    const minor = typedAmountToMinor(text.trim(), exponent);
    // Beyond 18 digits no stored total can equal it (and PostgreSQL's bigint would refuse it).
    if (minor === undefined || minor.replace(/^-/, '').length > 18) continue;
    const others = [...CODES_BY_EXPONENT].flatMap(([e, codes]) => (e === exponent ? [] : codes));
    candidates.push({
      minor: minor.replace(/^-/, ''),
      exponent,
      currencies: exponent === 2 ? { notIn: others } : { in: currencies },
    });
  }
  return candidates;
}
