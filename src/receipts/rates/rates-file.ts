// What a rates file is and how one is refused, without the reader: the rates job and the CLI are
// loaded by every `serve`, and the reader's XML parser (saxes) only when a file is read
// (`import('./ecb-file.ts')`), as every reader of untrusted files is (test/cli/lean-start.test.ts).

export interface RatesDay {
  date: string;
  /** Currency -> units per 1 EUR, the decimal text as written. */
  rates: ReadonlyMap<string, string>;
}

/** Stable codes of a refused rates file or fetch, kept in `reference_rate_source.last_error_code`. */
export type RatesFailureCode =
  | 'rates_unsafe_xml'
  | 'rates_malformed_file'
  | 'rates_limit_exceeded'
  | 'rates_not_ecb_format'
  | 'rates_invalid_value'
  | 'rates_file_too_large'
  | 'rates_fetch_failed';

export class RatesFileError extends Error {
  constructor(
    readonly code: RatesFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The full history since 1999 is about 6,800 days of at most about 40 currencies in 6 MiB; a file
 * beyond these is not the ECB's. Elements outside a day are counted too (a day's own are capped
 * by the XML reader).
 */
export const RATES_FILE_LIMITS = { bytes: 16 * 1024 * 1024, days: 20_000, currencies: 100, elements: 50_000 };
