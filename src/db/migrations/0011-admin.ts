import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Administration over the API (issue 15): organization settings with a revision, API keys with
 * an expiry and a revision, and the transport of each audit row.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('legal_name', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('address', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('default_currency', 'text').execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('invoice_number_prefix', 'text', (c) => c.notNull().defaultTo('INV-'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('organizations').addColumn('updated_at', t.timestamp).execute();
  await sql`update organizations set updated_at = created_at`.execute(db);

  await db.schema.alterTable('api_keys').addColumn('expires_at', t.timestamp).execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('api_keys_org_created')
    .on('api_keys')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // Null on rows written before this migration: their transport was not recorded.
  await db.schema.alterTable('audit_log').addColumn('transport', 'text').execute();
  await db.schema
    .createIndex('audit_log_org_created')
    .on('audit_log')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
}
