import type { Bool, Json, Minor, Timestamp } from './types.ts';

/** Civil date `YYYY-MM-DD`. */
type CivilDate = string;

/**
 * An original file: immutable once written, one row per distinct content in an organization. Its
 * bytes are in `file_parts` under its id.
 */
export interface StoredFilesTable {
  id: string;
  organization_id: string;
  /** SHA-256 of `bytes`, 64 lowercase hex characters. */
  sha256: string;
  size: Minor;
  media_type: string;
  file_name: string;
  created_at: Timestamp;
}

export interface InboundAddressesTable {
  id: string;
  organization_id: string;
  /** What mail sent here is for: `receipts`, `company_mail`... (a registered purpose). */
  purpose: string;
  /** Unique across the service; the address is `<local_part>@<inbound domain>`. */
  local_part: string;
  /** Set when rotated away: mail to a retired address is refused. */
  retired_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
}

export interface InboundMessagesTable {
  id: string;
  organization_id: string;
  address_id: string;
  purpose: string;
  /** accepted | refused */
  outcome: string;
  reason: string | null;
  member_id: string | null;
  items: number;
  size: Minor;
  received_at: Timestamp;
}

export interface ReceiptsTable {
  id: string;
  organization_id: string;
  file_id: string;
  sha256: string;
  file_name: string;
  media_type: string;
  size: Minor;
  /** upload | email | mail_forward */
  source: string;
  /** `member:<id>` of who sent or uploaded it. */
  received_by: string;
  /** new | processing | ready | needs_review | failed | matched | ignored */
  state: string;
  state_before_ignore: string | null;
  kind: string | null;
  fields: Json | null;
  review_reasons: Json;
  failure_code: string | null;
  failure_message: string | null;
  merchant: string | null;
  document_date: CivilDate | null;
  /** Start of the service period read from the document (migration 0030); null when none. */
  service_period_start: CivilDate | null;
  total_minor: Minor | null;
  currency: string | null;
  card_last_four: string | null;
  /** The receipt entry posted when it was processed. */
  entry_id: string | null;
  /** The transaction it is matched to. */
  transaction_id: string | null;
  job_id: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MatchSuggestionsTable {
  id: string;
  organization_id: string;
  receipt_id: string;
  transaction_id: string;
  /** Score in per mille (0-1000). */
  score: number;
  details: Json;
  /** open | confirmed | declined */
  state: string;
  decided_by: string | null;
  decided_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MerchantAliasesTable {
  id: string;
  organization_id: string;
  pattern: string;
  merchant: string;
  source: string;
  created_at: Timestamp;
}

export interface MatchingSettingsTable {
  organization_id: string;
  auto_match: Bool;
  revision: number;
  updated_at: Timestamp;
}

export interface ReceiptConsolidationsTable {
  id: string;
  organization_id: string;
  receipt_entry_id: string;
  target_entry_id: string;
  mode: string;
  source_fingerprint: string;
  evidence_ids: Json;
  reason: string;
  confirmed_by: string;
  created_at: Timestamp;
}

export interface ReceiptTables {
  stored_files: StoredFilesTable;
  inbound_addresses: InboundAddressesTable;
  inbound_messages: InboundMessagesTable;
  receipts: ReceiptsTable;
  match_suggestions: MatchSuggestionsTable;
  merchant_aliases: MerchantAliasesTable;
  matching_settings: MatchingSettingsTable;
  receipt_consolidations: ReceiptConsolidationsTable;
}
