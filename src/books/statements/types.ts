/**
 * The contract between statement parsers (one per format, under `src/books/statements/`) and the
 * import job that stores what they read. Parsers are pure: bytes in, items out; they never touch
 * the database, and they yield items one at a time so a 100,000-line file is imported in bounded
 * memory (the job inserts in batches as items arrive).
 */
import type { CodePage } from './code-pages.ts';

export type StatementFormat = 'csv' | 'ofx' | 'camt053' | 'mt940' | 'qif';

/** Which CSV column holds what; every name is a header cell as written in the file (or a 0-based index). */
export interface CsvColumnMapping {
  date: string | number;
  /** Used when the date cell is empty: Revolut leaves `Completed Date` empty on pending rows. */
  fallbackDate?: string | number;
  /** One signed amount column, or `debit` and `credit` (both positive amounts, debit = money out). */
  amount?: string | number;
  debit?: string | number;
  credit?: string | number;
  /**
   * A column that says whether the row's amount is money in or out (`CR`/`DR`, `C`/`D`, `Credit`/
   * `Debit`, `H`/`S`): the amount is then read without its sign. Card exports mark only payments
   * (`CR`), so an empty marker is the other kind of the markers the file uses.
   */
  debitCreditMarker?: string | number;
  description: string | number;
  valueDate?: string | number;
  reference?: string | number;
  counterpartyName?: string | number;
  counterpartyIban?: string | number;
  currency?: string | number;
  /** The account the row belongs to (Sparkasse `Auftragskonto`), reported as `accountRef`. */
  account?: string | number;
  /** A column whose value marks a row as not yet booked (e.g. Revolut `State` = PENDING). */
  status?: string | number;
  /** `dd.MM.yyyy`, `MM/dd/yyyy`, `yyyy-MM-dd`, ...; detected when omitted. */
  dateFormat?: string;
  /** `,` or `.`; detected when omitted. */
  decimalSeparator?: ',' | '.';
  /** Card accounts export purchases as positive numbers: `invert` flips every sign. */
  sign?: 'as_is' | 'invert';
}

export interface StatementSource {
  bytes: Buffer;
  fileName: string;
  mediaType: string;
  /** Only for CSV/TSV; without it the header row is recognised (English, German, French). */
  mapping?: CsvColumnMapping;
  /** Currency of the target account: used when the file carries none (QIF, most CSV). */
  accountCurrency: string;
  /** `credit_card` accounts get the card sign convention when a CSV has no explicit sign rule. */
  accountKind: 'checking' | 'savings' | 'credit_card' | 'cash' | 'payment_provider';
}

/** One transaction as the file states it. Amounts are exact minor units (bigint), negative = money out. */
export interface StatementLine {
  /** 1-based line of the file (text formats) or 1-based entry number (XML formats), for reports. */
  lineNumber: number;
  /** Account as the file identifies it (IBAN, account number), when the format carries one. */
  accountRef: string | null;
  /** ISO date `YYYY-MM-DD`. */
  bookedDate: string;
  valueDate: string | null;
  amountMinor: bigint;
  currency: string;
  /** The amount before conversion, when the bank converted it (card abroad, FX transfer). */
  originalAmountMinor: bigint | null;
  originalCurrency: string | null;
  /** Merchant or description exactly as the bank wrote it (whitespace runs folded, trimmed). */
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  /**
   * The bank's own reference: OFX FITID, CAMT AcctSvcrRef (else NtryRef; `/1`, `/2`... appended for
   * the lines of a split batch), MT940 :61: bank reference (after `//`), QIF check number, CSV column.
   * Not guaranteed unique: test files and some CSV exports repeat it, so match on more than it alone.
   */
  bankReference: string | null;
  /** Not yet booked by the bank (CSV pending rows, CAMT Sts PDNG); kept apart from booked lines. */
  pending: boolean;
  /** Last four digits of a card when the line names one. */
  cardLastFour: string | null;
  /** Bank charges attached to the line (CAMT Chrgs), exact minor units, negative = money out. */
  feesMinor: bigint | null;
  /** The bank reversed an earlier entry (CAMT RvslInd, MT940 RC/RD); the sign is already the booked one. */
  reversal?: boolean;
}

export type StatementItem =
  | { kind: 'line'; line: StatementLine }
  /** A line that could not be read; the import reports it and goes on. */
  | { kind: 'rejected'; lineNumber: number; reason: string };

/** What the parser detected and used: reported on the import job so a person can check it. */
export interface StatementDetection {
  format: StatementFormat;
  /** CSV only: the mapping used (given or recognised from the header). */
  mapping?: CsvColumnMapping;
  /** `latin-1` is Windows-1252; other 8-bit files name their code page (code-pages.ts). */
  encoding?: 'utf-8' | 'utf-16le' | 'utf-16be' | CodePage;
  separator?: string;
  dateFormat?: string;
  decimalSeparator?: ',' | '.';
  /** CSV only: the row of the header (after any preamble lines), 1-based. */
  headerLine?: number;
}

/**
 * Thrown for a file that cannot be read at all (wrong format for its name, truncated XML, an XML
 * DOCTYPE or entity, a header with no recognisable columns): the job fails with `code` and `message`.
 */
export class StatementFileError extends Error {
  constructor(
    readonly code:
      | 'empty_file'
      | 'unsupported_format'
      | 'format_mismatch'
      | 'malformed_file'
      | 'unsafe_xml'
      | 'unknown_columns'
      | 'bad_encoding'
      | 'line_too_long'
      | 'time_limit'
      /** A size, depth or count limit of the reader (`message` names which); see docs/security.md. */
      | 'limit_exceeded'
      /** The sandbox reading the file (src/lib/sandbox) ended it: memory, time, answer size, crash. */
      | 'parse_memory_limit'
      | 'parse_timeout'
      | 'parse_output_too_large'
      | 'parse_crashed',
    message: string,
  ) {
    super(message);
    this.name = 'StatementFileError';
  }
}

export interface StatementParse {
  detection: StatementDetection;
  /** Items in file order; pull them one at a time. Throws StatementFileError for a file-level fault. */
  items: AsyncIterable<StatementItem>;
}
