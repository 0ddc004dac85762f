import type { ColumnType } from 'kysely';
import type { Bool, Json, Timestamp } from './types.ts';

/** A column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface OrganizationsTable {
  id: string;
  name: string;
  time_zone: string;
  legal_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Free text, several lines: printed as given. */
  address: ColumnType<string | null, string | null | undefined, string | null>;
  /** ISO 4217 code, or null when none was chosen. */
  default_currency: ColumnType<string | null, string | null | undefined, string | null>;
  /** Put before the gapless invoice number (`INV-` gives `INV-000001`). */
  invoice_number_prefix: Defaulted<string>;
  revision: Defaulted<number>;
  /** Set while the organization is suspended (migration 0015): its portal sessions stop at once. */
  suspended_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Days an archived letter's scan is kept; null keeps scans until deleted (migration 0014). */
  mail_scan_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
  /** Null only if a row was inserted without it; read as created_at then. */
  updated_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp>;
  created_at: Timestamp;
}

export interface MembersTable {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  /** `iss|sub` of the OAuth identity mapped to this member, if any. */
  oauth_subject: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  member_id: string;
  /** Public part of the key, used to find the row; the secret part is only stored hashed. */
  lookup_id: string;
  secret_hash: string;
  scopes: Json;
  name: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** After this instant the key is refused on every request; null: never expires. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  revision: Defaulted<number>;
}

export interface IdempotencyKeysTable {
  organization_id: string;
  key: string;
  operation: string;
  request_hash: string;
  /** 'running' while the first request executes, then 'completed'. */
  state: string;
  locked_until: Timestamp;
  /** The fencing token of the current claim (migration 0012); completion and release require it. */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
  response_status: number | null;
  response_body: Json | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  organization_id: string;
  actor_type: string;
  actor_id: string;
  credential_id: string | null;
  operation: string;
  request_id: string;
  record_type: string;
  record_id: string;
  before_revision: number | null;
  after_revision: number | null;
  /** `http`, `mcp`, `cli`, `job` or `portal`; null on rows older than migration 0011. */
  transport: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: string;
  organization_id: string | null;
  recipients: Json;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: Json | null;
  kind: string | null;
  /** 'pending' (to send), 'sending' (claimed), 'sent', 'kept' (no SMTP configured), 'failed' (gave up). */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface EventsTable {
  id: string;
  organization_id: string;
  type: string;
  subject_type: string | null;
  subject_id: string | null;
  data: Json;
  request_id: string | null;
  created_at: Timestamp;
}

/** Credential token buckets shared by every process on PostgreSQL (src/operations/shared-rate-limit.ts). */
export interface RateLimitBucketsTable {
  bucket: string;
  tokens: number;
  /** Database clock of the last take, Unix milliseconds. */
  updated_ms: number;
  allowed: Bool;
  /** Tokens the last take granted: several when a busy process reserves ahead (migration 0019). */
  granted: ColumnType<number, number | undefined, number>;
}

/**
 * One row (id 1) whose counter triggers bump on every change a cached credential depends on
 * (migration 0019, src/credentials/key-cache.ts).
 */
export interface CredentialGenerationTable {
  id: number;
  generation: number;
}

export interface CoreTables {
  credential_generation: CredentialGenerationTable;
  rate_limit_buckets: RateLimitBucketsTable;
  events: EventsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
  mail_outbox: MailOutboxTable;
}
