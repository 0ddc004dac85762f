// Exchange rates the engine can use with no network at match time (issue 26 part 3): tables of
// units per euro, each with the date it is of. The operations hand the engine the dated tables the
// database keeps (reference-rates job or `accounting rates load`) and the rates implied by the
// organization's confirmed foreign matches; the bundled table is the fallback of last resort: it
// is old by the time anyone runs it, so the band it is used with is wide and the score it gives is
// below what a dated rate, a configured rate or the bank's original amount give.
import { iso4217MinorUnit } from '../../lib/currencies.ts';

export interface ReferenceRates {
  /** Units of the currency per 1 EUR, as the ECB quotes its daily reference rates. */
  perEur: Readonly<Record<string, number>>;
  /** ISO date the rates are of. */
  date: string;
  /** Where they come from, for the explanation: `bundled`, or the stored table's source label. */
  source: string;
}

/**
 * A rate the organization's own books imply: a receipt in `from` confirmed against a charge in
 * `to` (units of `to` per unit of `from`, card fees included), dated by the charge.
 */
export interface ImpliedRate {
  from: string;
  to: string;
  rate: number;
  date: string;
}

/** The rate a foreign pair is scored with, and what the explanation says about it. */
export interface RateFound {
  /** Units of `to` per unit of `from` (whole units, not minor units). */
  rate: number;
  kind: 'dated' | 'implied' | 'bundled';
  /** The date of the table or of the confirmed match the rate comes from. */
  date: string;
  /** `reference rates (ECB) of 2026-11-27`, `rate of your confirmed match of 2026-10-03`... */
  label: string;
}

/** Where the engine looks for a rate; every list is plain data the caller loaded beforehand. */
export interface RateSources {
  /** Dated reference tables, any order. */
  dated: readonly ReferenceRates[];
  /** A dated table at most this many days before the charge counts (weekends, holidays). */
  datedMaxAgeDays: number;
  implied: readonly ImpliedRate[];
  /** Implied rates at most this many days from the charge count. */
  impliedMaxAgeDays: number;
  bundled: ReferenceRates | null;
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

const DAY_MS = 86_400_000;
const dayNumber = (isoDate: string): number => Math.round(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);

/** The table of the charge's date, or the nearest earlier one within `maxAgeDays`, that has both currencies. */
function datedRate(
  sources: RateSources,
  from: string,
  to: string,
  chargeDate: string,
): RateFound | undefined {
  const day = dayNumber(chargeDate);
  let best: { table: ReferenceRates; rate: number; age: number } | undefined;
  for (const table of sources.dated) {
    const age = day - dayNumber(table.date);
    if (age < 0 || age > sources.datedMaxAgeDays || (best !== undefined && age >= best.age)) continue;
    const rate = crossRate(table, from, to);
    if (rate !== undefined) best = { table, rate, age };
  }
  if (best === undefined) return undefined;
  const { table, rate } = best;
  return {
    rate,
    kind: 'dated',
    date: table.date,
    label: `reference rates (${table.source}) of ${table.date}`,
  };
}

/** How many confirmed matches nearest the charge an implied rate is the median of. */
const IMPLIED_SAMPLE = 5;

/**
 * The median of the implied rates nearest the charge's date (a tip or a fee in one confirmed match
 * must not move the rate), dated by the match it comes from. Taken in either direction of the pair.
 */
function impliedRate(
  sources: RateSources,
  from: string,
  to: string,
  chargeDate: string,
): RateFound | undefined {
  const day = dayNumber(chargeDate);
  const near = sources.implied
    .flatMap((r) => {
      const rate = r.from === from && r.to === to ? r.rate : r.from === to && r.to === from ? 1 / r.rate : 0;
      const distance = Math.abs(dayNumber(r.date) - day);
      return rate > 0 && Number.isFinite(rate) && distance <= sources.impliedMaxAgeDays
        ? [{ rate, date: r.date, distance }]
        : [];
    })
    .sort((a, b) => a.distance - b.distance || (a.date < b.date ? -1 : a.date > b.date ? 1 : a.rate - b.rate))
    .slice(0, IMPLIED_SAMPLE)
    .sort((a, b) => a.rate - b.rate);
  // The lower middle of an even count: always a real match, so its date can be named.
  const median = near[Math.floor((near.length - 1) / 2)];
  if (median === undefined) return undefined;
  const of = near.length === 1 ? 'your confirmed match' : `your ${near.length} nearest confirmed matches`;
  return { rate: median.rate, kind: 'implied', date: median.date, label: `rate of ${of} of ${median.date}` };
}

/**
 * The rate for a charge in `to` of a document in `from`: the dated reference table of the charge's
 * date (or the nearest earlier within a few days), else the organization's implied rate nearest the
 * date, else the bundled table. Decision 491.
 */
export function rateForCharge(
  sources: RateSources,
  from: string,
  to: string,
  chargeDate: string,
): RateFound | undefined {
  const found = datedRate(sources, from, to, chargeDate) ?? impliedRate(sources, from, to, chargeDate);
  if (found !== undefined) return found;
  const table = sources.bundled;
  const rate = table === null ? undefined : crossRate(table, from, to);
  if (table === null || rate === undefined) return undefined;
  return { rate, kind: 'bundled', date: table.date, label: `${table.source} rates of ${table.date}` };
}

/**
 * Units of `to` minor units per `from` minor unit for a rate between whole units: a yen has no
 * minor unit, a euro has cents, so 1 JPY at 0.0055 EUR is 0.55 cents per yen. Unknown codes count 2.
 */
export function minorUnitRate(rate: number, from: string, to: string): number {
  const exponent = (iso4217MinorUnit(to) ?? 2) - (iso4217MinorUnit(from) ?? 2);
  return rate * 10 ** exponent;
}
