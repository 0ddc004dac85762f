import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Webhook endpoints, their delivery queue and the delivery log (docs/webhooks.md).
 * `webhook_deliveries` is one row per (endpoint, event): the unique key makes the fan-out and any
 * retry of it idempotent. `webhook_attempts` is append-only, one row per HTTP try.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // Instance key for sealing endpoint secrets when ACCOUNTING_SECRET_KEY is unset (one row, id 'default').
  await db.schema
    .createTable('webhook_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_material', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Made here, once per database, so no request ever races to create it (or rolls it back). The
  // format (32 random bytes, base64) is written out because migrations import no live code.
  await sql`insert into webhook_keys (id, key_material, created_at)
    values ('default', ${randomBytes(32).toString('base64')}, ${new Date().toISOString()})`.execute(db);

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('events', t.json, (c) => c.notNull())
    // Sealed (AES-256-GCM) signing secret; see src/webhooks/endpoint-secrets.ts.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('secret_hint', 'text', (c) => c.notNull())
    .addColumn('secret_version', 'integer', (c) => c.notNull())
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', t.timestamp)
    .addColumn('last_delivery_at', t.timestamp)
    .addColumn('last_success_at', t.timestamp)
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('archived_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_org_created')
    .on('webhook_endpoints')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('endpoint_id', t.id, (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', t.id, (c) => c.notNull().references('events.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Attempts allowed in all; null = the retry schedule's length (a manual retry raises it).
    .addColumn('attempt_limit', 'integer')
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('locked_by', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .addUniqueConstraint('webhook_deliveries_endpoint_event_unique', ['endpoint_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  // The claimer's per-endpoint pick (src/webhooks/delivery/claim.ts).
  await db.schema
    .createIndex('webhook_deliveries_endpoint_due')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_org_created')
    .on('webhook_deliveries')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('delivery_id', t.id, (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('endpoint_id', t.id, (c) => c.notNull())
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error_class', 'text')
    .addColumn('error_message', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('webhook_attempts_delivery_number_unique', ['delivery_id', 'attempt_number'])
    .execute();
}
