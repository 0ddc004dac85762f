import type { Bool, Json, Timestamp } from './types.ts';

/** Instance key that seals endpoint secrets when ACCOUNTING_SECRET_KEY is unset (row id 'default'). */
export interface WebhookKeysTable {
  id: string;
  /** base64 of 32 random bytes. */
  key_material: string;
  created_at: Timestamp;
}

export type WebhookEndpointStatus = 'active' | 'disabled' | 'archived';

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  description: string;
  /** JSON array of patterns: exact type, `group.*` or `*`. */
  events: Json;
  /** Sealed signing secret (never plaintext): open with `loadSigningSecret` in src/webhooks/endpoint-secrets.ts. */
  secret: string;
  /** `whsec_…abcd` (last four characters). */
  secret_hint: string;
  secret_version: number;
  /** The secret before the last rotation, sealed like `secret`; it signs too until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  active: Bool;
  /** WebhookEndpointStatus. */
  status: string;
  /** Consecutive failed attempts; reset to 0 on a success. */
  failure_count: number;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  last_delivery_at: Timestamp | null;
  last_success_at: Timestamp | null;
  /** e.g. `member:<id>`. */
  created_by: string;
  archived_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface WebhookDeliveriesTable {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  /** WebhookDeliveryStatus. */
  status: string;
  attempt_count: number;
  /** Attempts allowed in all; null = the retry schedule's length (webhooks.deliveries.retry raises it). */
  attempt_limit: number | null;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: string;
  organization_id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt_number: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  /** 'success' | 'failure'. */
  outcome: string;
  error_class: string | null;
  /** Short diagnostic of a failure (never request headers or body). */
  error_message: string | null;
  response_excerpt: string | null;
  created_at: Timestamp;
}

/** Tables of this area; each key is a table name, each value its row interface. */
export interface WebhookTables {
  webhook_keys: WebhookKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
