import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Browser sessions for the dashboard (members) and the portal (contractors), the one-time sign-in
 * links that start them, and the short-lived state of an OIDC sign-in (issue 13). Everything is
 * in the database so any process can serve any request; only hashes of secrets are stored.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('principal_type', 'text', (c) => c.notNull())
    .addColumn('principal_id', t.id, (c) => c.notNull())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('idle_expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp)
    .addColumn('end_reason', 'text')
    .execute();
  await db.schema
    .createIndex('web_sessions_principal')
    .on('web_sessions')
    .columns(['organization_id', 'principal_type', 'principal_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('principal_type', 'text', (c) => c.notNull())
    .addColumn('principal_id', t.id, (c) => c.notNull())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .execute();

  await db.schema
    .createTable('oidc_sign_ins')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .execute();
}
