import type { ColumnType } from 'kysely';
import type { Bool, Json, Minor, Timestamp } from './types.ts';

/** Civil date `YYYY-MM-DD` (PostgreSQL `date` is parsed back to this string). */
type CivilDate = string;

export interface BooksAccountsTable {
  id: string;
  organization_id: string;
  name: string;
  /** checking | savings | credit_card | cash | payment_provider */
  kind: string;
  currency: string;
  /** Last four digits of the account number, or the IBAN. */
  account_ref: string | null;
  opening_balance_minor: Minor;
  opening_date: CivilDate | null;
  archived_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BooksCardsTable {
  id: string;
  organization_id: string;
  account_id: string;
  holder_member_id: string;
  last_four: string;
  brand: string | null;
  label: string | null;
  archived_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BooksCategoriesTable {
  id: string;
  organization_id: string;
  code: string;
  name: string;
  /** income | expense | asset | liability | equity */
  kind: string;
  default_tax_rate: string | null;
  active: Bool;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BooksJobsTable {
  id: string;
  organization_id: string;
  /** statement_import | entries_export */
  kind: string;
  /** queued | running | succeeded | failed */
  state: string;
  account_id: string | null;
  params: Json;
  file_name: string | null;
  media_type: string | null;
  file_size: Minor;
  progress: Json;
  rejected: Json;
  detection: Json | null;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  locked_until: Timestamp | null;
  locked_by: string | null;
  created_by: string;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  purge_after: Timestamp | null;
}

/** A job's file (its bytes are in `file_parts` under the job's id): present while it is kept. */
export interface BooksJobFilesTable {
  job_id: string;
  organization_id: string;
}

export interface LedgerEntriesTable {
  id: string;
  organization_id: string;
  entry_date: CivilDate;
  description: string;
  counterparty: string | null;
  amount_minor: Minor;
  currency: string;
  /** unreviewed | reviewed */
  review_status: string;
  /** transaction | invoice | invoice_payment | invoice_void | contractor_payout */
  source_type: string;
  source_id: string;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LedgerAllocationsTable {
  id: string;
  organization_id: string;
  entry_id: string;
  position: number;
  category_id: string;
  amount_minor: Minor;
  tax_rate: string;
  tax_minor: Minor;
}

export interface BankTransactionsTable {
  id: string;
  organization_id: string;
  account_id: string;
  card_id: string | null;
  booked_date: CivilDate;
  value_date: CivilDate | null;
  amount_minor: Minor;
  currency: string;
  original_amount_minor: Minor | null;
  original_currency: string | null;
  fees_minor: Minor | null;
  description: string;
  merchant: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  bank_reference: string | null;
  dedupe_text: string;
  /** unmatched | matched | excluded */
  status: string;
  note: string | null;
  category_hint: string | null;
  /** manual | import */
  source: string;
  import_id: string | null;
  line_number: number | null;
  receipt_id: string | null;
  /** When receipts matching last looked for this transaction's receipts (migration 0013); null: not yet. */
  match_scanned_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  entry_id: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Tables of the books; each key is a table name, each value its row interface. */
export interface BooksTables {
  books_accounts: BooksAccountsTable;
  books_cards: BooksCardsTable;
  books_categories: BooksCategoriesTable;
  books_jobs: BooksJobsTable;
  books_job_files: BooksJobFilesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_allocations: LedgerAllocationsTable;
  bank_transactions: BankTransactionsTable;
}
