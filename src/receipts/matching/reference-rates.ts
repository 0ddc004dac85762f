// Exchange rates the engine can use with no network at match time (issue 26 part 3): a table of
// units per euro with the date it is of. The bundled table is the fallback of last resort: it is
// old by the time anyone runs it, so the band it is used with is wide and the score it gives is
// below what a configured rate or the bank's original amount give.

export interface ReferenceRates {
  /** Units of the currency per 1 EUR, as the ECB quotes its daily reference rates. */
  perEur: Readonly<Record<string, number>>;
  /** ISO date the rates are of. */
  date: string;
  /** Where they come from, for the explanation. */
  source: 'bundled';
}

/**
 * Rounded levels of the ECB euro reference rates around late November 2025 (the month this table
 * was written), for the currencies card purchases abroad are most often in.
 */
export const BUNDLED_RATES: ReferenceRates = {
  date: '2025-11-28',
  source: 'bundled',
  perEur: {
    EUR: 1,
    USD: 1.16,
    GBP: 0.88,
    CHF: 0.93,
    JPY: 180,
    CAD: 1.63,
    AUD: 1.78,
    NZD: 2.05,
    SEK: 10.95,
    NOK: 11.75,
    DKK: 7.46,
    PLN: 4.24,
    CZK: 24.2,
    HUF: 384,
    RON: 5.09,
    CNY: 8.23,
    HKD: 9.03,
    SGD: 1.51,
    INR: 103,
    KRW: 1700,
    MXN: 21.3,
    BRL: 6.2,
    ZAR: 20,
    TRY: 49,
    ILS: 3.8,
    AED: 4.26,
  },
};

/** Units of `to` per unit of `from` through the euro, or undefined when either is not in the table. */
export function crossRate(rates: ReferenceRates, from: string, to: string): number | undefined {
  const a = rates.perEur[from];
  const b = rates.perEur[to];
  if (a === undefined || b === undefined || a <= 0 || b <= 0) return undefined;
  return b / a;
}
