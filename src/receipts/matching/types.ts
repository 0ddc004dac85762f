// Inputs and outputs of the receipt matching engine. Plain data only: the engine never reads a
// database or a clock, so the operations that store suggestions can call it inside a transaction
// and the evaluation can call it on generated data.

import { BUNDLED_RATES, type ImpliedRate, type ReferenceRates } from './reference-rates.ts';

/** A bank or card transaction that has no receipt yet. */
export interface TransactionCandidate {
  id: string;
  accountId: string;
  /** Last four digits of the card that was charged; null for transfers and for banks that omit it. */
  cardLastFour: string | null;
  /** ISO date (YYYY-MM-DD) the bank booked the transaction. */
  bookedDate: string;
  /** Minor units in `currency`; negative is money out, positive is money in (a refund). */
  amountMinor: bigint;
  currency: string;
  /** What the merchant charged when the card was used in another currency, as the bank reports it. */
  originalAmountMinor: bigint | null;
  originalCurrency: string | null;
  /** The descriptor as the bank wrote it, e.g. `SQ *BLUE BOTTLE COFFEE 415-555`. */
  description: string;
  /** A cleaned merchant name from the bank or an enrichment provider, when there is one. */
  merchantClean: string | null;
  /** `pending` covers card pre-authorizations, whose amount may still change. */
  status: 'pending' | 'booked';
}

export type ReceiptDocumentType = 'receipt' | 'invoice' | 'order_confirmation' | 'refund' | 'other';

/** Extraction confidence per field, 0..1, as reported by the document reader. */
export interface ReceiptConfidences {
  merchant: number;
  date: number;
  total: number;
  currency: number;
  cardLastFour: number;
}

/** A receipt waiting for its transaction, with the fields read from the document. */
export interface ReceiptCandidate {
  id: string;
  merchant: string | null;
  /** ISO date of the purchase as printed on the receipt. */
  date: string | null;
  /** Minor units, positive (a refund receipt is positive too; its documentType says the direction). */
  totalMinor: bigint | null;
  currency: string | null;
  cardLastFour: string | null;
  /** Free text as read: `visa`, `mastercard`, `cash`, `paypal`, `apple pay`... */
  paymentMethod: string | null;
  orderNumber: string | null;
  documentType: ReceiptDocumentType;
  /**
   * The service period a subscription invoice bills (ISO dates, start <= end), when the reader found
   * one it trusts; the date component expects the charge at its start (components.ts).
   */
  servicePeriod?: { start: string; end: string } | null;
  confidence: ReceiptConfidences;
}

/** A learned descriptor pattern (normalized, see learnAlias) and the merchant it stands for. */
export interface MerchantAlias {
  pattern: string;
  merchant: string;
}

export interface MatchSettings {
  /** Suggestions scoring below this are not shown. */
  suggestThreshold: number;
  /** How many suggestions to return per receipt or transaction. */
  topN: number;
  /**
   * A suggestion scoring this much below the best one is left out: next to a near-certain match,
   * a weak alternative is noise for the person reviewing.
   */
  maxGapFromTop: number;
  /** Booking days after the receipt date that count as typical (full date credit decays slowly). */
  typicalBookingDays: number;
  /** Beyond this many days after the receipt date a transaction gets no date credit. */
  maxBookingDays: number;
  /** Bookings this many days before the receipt date still get some credit (time zones, pre-orders). */
  earlyBookingDays: number;
  /** Relative band for same-currency amounts that differ slightly (surcharges, rounding). */
  amountTolerance: number;
  /** Relative band when the currency differs and the bank did not report the original amount. */
  fxTolerance: number;
  /** A charge up to this fraction above the receipt total counts as a tip. */
  maxTipRatio: number;
  /**
   * Approximate rates, `FROM/TO` -> units of TO per unit of FROM, used only when a transaction is
   * in another currency than the receipt and carries no original amount. Never used for exactness.
   */
  approximateRates: Readonly<Record<string, number>>;
  /**
   * Reference tables kept in the database, one per date (the operations load those around the
   * charges being scored): the table of a charge's date, or the nearest earlier one within
   * `datedRateMaxAgeDays`, comes first when no approximate rate is configured (decision 491).
   */
  datedRates: readonly ReferenceRates[];
  /** ECB tables skip weekends and TARGET holidays (Good Friday to Easter Monday is 4 days). */
  datedRateMaxAgeDays: number;
  /** Relative band around a dated rate of the charge's day: card networks' own rates and fees. */
  datedFxTolerance: number;
  /** Rates implied by the organization's confirmed foreign matches: used when no dated rate exists. */
  impliedRates: readonly ImpliedRate[];
  /** Implied rates at most this many days from the charge's date count. */
  impliedRateMaxAgeDays: number;
  /**
   * The last fallback: a dated table of reference rates (the bundled one by default; null turns it
   * off). Implied and bundled rates are used with the wider `referenceFxTolerance`.
   */
  referenceRates: ReferenceRates | null;
  /** Relative band around a reference-table rate: the table may be months old, and cards add fees. */
  referenceFxTolerance: number;
  autoMatch: {
    /** Off by default: a person confirms every match unless the organization turns it on. */
    enabled: boolean;
    minScore: number;
    /** The top suggestion must beat the second by at least this much. */
    minMargin: number;
  };
}

export const defaultMatchSettings: MatchSettings = {
  suggestThreshold: 0.5,
  topN: 3,
  maxGapFromTop: 0.2,
  typicalBookingDays: 5,
  maxBookingDays: 14,
  earlyBookingDays: 2,
  amountTolerance: 0.03,
  fxTolerance: 0.03,
  // 30 % tips happen (issue 26); the extra point absorbs rounding of the tipped charge.
  maxTipRatio: 0.31,
  approximateRates: {},
  datedRates: [],
  datedRateMaxAgeDays: 5,
  // Networks' rates sit within about 1 % of the ECB's; card fees add 0-3 %.
  datedFxTolerance: 0.05,
  impliedRates: [],
  impliedRateMaxAgeDays: 183,
  referenceRates: BUNDLED_RATES,
  // A year of EUR/USD drift rarely leaves ±8 % (2022 aside); card fees add 1-3 %.
  referenceFxTolerance: 0.08,
  autoMatch: { enabled: false, minScore: 0.85, minMargin: 0.15 },
};

/** Each component is 0..1; null means the pair gave no evidence either way (a field was missing). */
export interface MatchComponents {
  amount: number | null;
  date: number | null;
  merchant: number | null;
  currency: number | null;
  card: number | null;
  order: number | null;
}

export interface MatchScore {
  score: number;
  components: MatchComponents;
  /** True when the amounts agree to the minor unit in the same currency. */
  exactAmount: boolean;
  /** True when both sides name a card and the last four digits agree. */
  sameCard: boolean;
  /** Short, stable, human-readable explanations, strongest evidence first. */
  reasons: string[];
}

export interface Suggestion<T> {
  candidate: T;
  score: MatchScore;
}
