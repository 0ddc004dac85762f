import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Receipts (docs/receipts.md): the shared file store (originals, content-addressed), inbound
 * e-mail addresses per organization and purpose with their message log, inbox items (receipts),
 * match suggestions, learned merchant aliases, matching settings and receipt consolidations.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const date = t.id === 'uuid' ? 'date' : 'text';

  // Originals are immutable: a row is inserted once and never updated; the same bytes in the same
  // organization are one row (sha256 unique per organization).
  await db.schema
    .createTable('stored_files')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', t.bigint, (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('bytes', t.blob, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('stored_files_sha', ['organization_id', 'sha256'])
    .execute();

  await db.schema
    .createTable('inbound_addresses')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('purpose', 'text', (c) => c.notNull()) // receipts | company_mail | ...
    .addColumn('local_part', 'text', (c) => c.notNull().unique())
    .addColumn('retired_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  // One live address per organization and purpose, even when two first reads race.
  await db.schema
    .createIndex('inbound_addresses_live')
    .on('inbound_addresses')
    .columns(['organization_id', 'purpose'])
    .unique()
    .where(sql<boolean>`retired_at is null`)
    .execute();

  // One row per message delivered to an address: accepted or refused, with a stable reason code.
  await db.schema
    .createTable('inbound_messages')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('address_id', t.id, (c) => c.notNull().references('inbound_addresses.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull()) // accepted | refused
    .addColumn('reason', 'text')
    .addColumn('member_id', t.id)
    .addColumn('items', 'integer', (c) => c.notNull())
    .addColumn('size', t.bigint, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_messages_org')
    .on('inbound_messages')
    .columns(['organization_id', 'purpose', 'outcome'])
    .execute();

  // Inbox items. state: new | processing | ready | needs_review | failed | matched | ignored.
  await db.schema
    .createTable('receipts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('file_id', t.id, (c) => c.notNull().references('stored_files.id'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', t.bigint, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull()) // upload | email | mail_forward
    .addColumn('received_by', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_before_ignore', 'text')
    .addColumn('kind', 'text')
    .addColumn('fields', t.json)
    .addColumn('review_reasons', t.json, (c) => c.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('merchant', 'text')
    .addColumn('document_date', date)
    .addColumn('total_minor', t.bigint)
    .addColumn('currency', 'text')
    .addColumn('card_last_four', 'text')
    .addColumn('entry_id', t.id, (c) => c.references('ledger_entries.id'))
    .addColumn('transaction_id', t.id, (c) => c.references('bank_transactions.id'))
    .addColumn('job_id', t.id)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('receipts_sha', ['organization_id', 'sha256'])
    .execute();
  await db.schema
    .createIndex('receipts_org_created')
    .on('receipts')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // When the matching job last looked for waiting receipts for the transaction (null: not yet).
  await db.schema.alterTable('bank_transactions').addColumn('match_scanned_at', t.timestamp).execute();
  await db.schema
    .createIndex('bank_transactions_match_scan')
    .on('bank_transactions')
    .columns(['organization_id', 'created_at'])
    .where(sql<boolean>`match_scanned_at is null`)
    .execute();

  // state: open | confirmed | declined (a declined pair is never suggested again).
  await db.schema
    .createTable('match_suggestions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('receipt_id', t.id, (c) => c.notNull().references('receipts.id'))
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('bank_transactions.id'))
    .addColumn('score', 'integer', (c) => c.notNull()) // per mille
    .addColumn('details', t.json, (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('match_suggestions_pair', ['organization_id', 'receipt_id', 'transaction_id'])
    .execute();
  await db.schema
    .createIndex('match_suggestions_org_state')
    .on('match_suggestions')
    .columns(['organization_id', 'state', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('merchant_aliases')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('merchant', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull()) // confirm | attach | consolidation
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('merchant_aliases_pattern', ['organization_id', 'pattern'])
    .execute();

  await db.schema
    .createTable('matching_settings')
    .addColumn('organization_id', t.id, (c) => c.primaryKey().references('organizations.id'))
    .addColumn('auto_match', t.bool, (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  // A confirmed consolidation: the association and the reviewer's reason (the record history).
  await db.schema
    .createTable('receipt_consolidations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('receipt_entry_id', t.id, (c) => c.notNull().references('ledger_entries.id'))
    .addColumn('target_entry_id', t.id, (c) => c.notNull().references('ledger_entries.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('source_fingerprint', 'text', (c) => c.notNull())
    .addColumn('evidence_ids', t.json, (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('confirmed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('receipt_consolidations_pair', [
      'organization_id',
      'receipt_entry_id',
      'target_entry_id',
    ])
    .execute();
}
