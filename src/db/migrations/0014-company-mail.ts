import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Company mail (issue 15): letters (scanned post, messages to the company mail address), the
 * record of every read of one, and the organization's retention of scans (the bytes live in the
 * shared file store, stored_files of 0013). The reserved scope `mail:send` becomes `mail:write`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('mail_items')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', t.bigint, (c) => c.notNull())
    .addColumn('read_at', t.timestamp)
    .addColumn('archived_at', t.timestamp)
    .addColumn('scan_purged_at', t.timestamp)
    .addColumn('forwarded_inbox_item_id', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_items_org_created')
    .on('mail_items')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('mail_items_archived')
    .on('mail_items')
    .columns(['archived_at', 'scan_purged_at'])
    .execute();

  // The files of a letter in order: a PDF, the pages as images, or a message and its attachments.
  await db.schema
    .createTable('mail_item_files')
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('item_id', t.id, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    // A stored_files id; null once the retention sweeper purged the scan (the letter's record stays).
    .addColumn('scan_id', t.id)
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('size_bytes', t.bigint, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_item_files_pk', ['item_id', 'position'])
    .execute();

  await db.schema
    .createTable('mail_item_reads')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('item_id', t.id, (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text')
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('read_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_item_reads_item')
    .on('mail_item_reads')
    .columns(['organization_id', 'item_id', 'read_at'])
    .execute();

  // Null: scans are kept until deleted by hand (the default, see docs/mail.md).
  await db.schema.alterTable('organizations').addColumn('mail_scan_retention_days', 'integer').execute();

  if (t.json === 'jsonb') {
    await sql`update api_keys set scopes = replace(scopes::text, '"mail:send"', '"mail:write"')::jsonb
      where scopes::text like '%mail:send%'`.execute(db);
  } else {
    await sql`update api_keys set scopes = replace(scopes, '"mail:send"', '"mail:write"')
      where scopes like '%mail:send%'`.execute(db);
  }
}
