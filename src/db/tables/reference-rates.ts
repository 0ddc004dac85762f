import type { Timestamp } from './types.ts';

/** One currency's ECB-style reference rate on one date (migration 0032, decision 490). */
export interface ReferenceRatesTable {
  /** Civil date `YYYY-MM-DD` the rate is of. */
  rate_date: string;
  /** ISO 4217 code. */
  currency: string;
  /** Units of the currency per 1 EUR, the decimal text as the source wrote it (`1.0512`). */
  rate: string;
  /** Where it came from: the configured URL's host and path, or `file <name>` for a CLI load. */
  source: string;
  loaded_at: Timestamp;
}

/** The state of the job that keeps `reference_rates` from a configured source (decision 492). */
export interface ReferenceRateSourceTable {
  /** `default`: one configured source. */
  id: string;
  /** The URL last configured (host and path only in anything shown). */
  url: string;
  next_due_at: Timestamp;
  /** A fetch in progress holds the row until then; past it any process may take over. */
  lease_until: Timestamp | null;
  lease_token: string | null;
  last_attempt_at: Timestamp | null;
  last_success_at: Timestamp | null;
  /** Stable code of the last failure (`rates_unsafe_xml`, `rates_fetch_timeout`...); null after a success. */
  last_error_code: string | null;
  last_error_message: string | null;
  newest_date: string | null;
  rows_loaded: number;
}

export interface ReferenceRateTables {
  reference_rates: ReferenceRatesTable;
  reference_rate_source: ReferenceRateSourceTable;
}
