import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Operator experience (issue 16): the previous signing secret of an endpoint, kept sealed for the
 * rotation overlap (docs/webhook-signatures.md, "Rotation"), and the credential rate limit's
 * buckets shared by every process on PostgreSQL (src/operations/shared-rate-limit.ts; created on
 * SQLite too, where it stays empty, so both schemas match).
 */
export async function up(db: Kysely<unknown>, types: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('rate_limit_buckets')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('updated_ms', 'double precision', (c) => c.notNull())
    .addColumn('allowed', types.bool, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('previous_secret_until', types.timestamp)
    .execute();
}
