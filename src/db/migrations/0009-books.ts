import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * The books (docs/books.md): money accounts and their cards, bank and card transactions, the
 * chart of categories, ledger entries with their allocations, and the books job queue (statement
 * imports and entry exports, with the files they read or write).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const date = t.id === 'uuid' ? 'date' : 'text';

  await db.schema
    .createTable('books_accounts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('account_ref', 'text')
    .addColumn('opening_balance_minor', t.bigint, (c) => c.notNull())
    .addColumn('opening_date', date)
    .addColumn('archived_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('books_accounts_org_created')
    .on('books_accounts')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('books_cards')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', t.id, (c) => c.notNull().references('books_accounts.id'))
    .addColumn('holder_member_id', t.id, (c) => c.notNull().references('members.id'))
    .addColumn('last_four', 'text', (c) => c.notNull())
    .addColumn('brand', 'text')
    .addColumn('label', 'text')
    .addColumn('archived_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('books_cards_account')
    .on('books_cards')
    .columns(['account_id', 'last_four'])
    .execute();
  await db.schema
    .createIndex('books_cards_holder')
    .on('books_cards')
    .columns(['organization_id', 'holder_member_id'])
    .execute();

  await db.schema
    .createTable('books_categories')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // income | expense | asset | liability | equity
    .addColumn('default_tax_rate', 'text')
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('books_categories_code', ['organization_id', 'code'])
    .execute();

  // Imports and exports: the queue's rows, claimed with a lease; all writes live in src/books/jobs-queue.ts.
  await db.schema
    .createTable('books_jobs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', 'text', (c) => c.notNull()) // statement_import | entries_export
    .addColumn('state', 'text', (c) => c.notNull()) // queued | running | succeeded | failed
    .addColumn('account_id', t.id, (c) => c.references('books_accounts.id'))
    .addColumn('params', t.json, (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('media_type', 'text')
    .addColumn('file_size', t.bigint, (c) => c.notNull())
    .addColumn('progress', t.json, (c) => c.notNull())
    .addColumn('rejected', t.json, (c) => c.notNull())
    .addColumn('detection', t.json)
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('locked_by', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('started_at', t.timestamp)
    .addColumn('finished_at', t.timestamp)
    .addColumn('purge_after', t.timestamp)
    .execute();
  await db.schema.createIndex('books_jobs_state').on('books_jobs').columns(['state', 'created_at']).execute();
  // The uploaded statement (imports) or the written CSV (exports), apart from the job row: progress
  // updates rewrite the job row, and SQLite rewrites a row's blob with it. Deleted once purged.
  await db.schema
    .createTable('books_job_files')
    .addColumn('job_id', t.id, (c) => c.primaryKey().references('books_jobs.id'))
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('bytes', t.blob, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('entry_date', date, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text')
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('review_status', 'text', (c) => c.notNull()) // unreviewed | reviewed
    .addColumn('source_type', 'text', (c) => c.notNull()) // transaction | invoice | invoice_payment | invoice_void
    .addColumn('source_id', t.id, (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_source', ['organization_id', 'source_type', 'source_id'])
    .execute();
  await db.schema
    .createIndex('ledger_entries_org_date')
    .on('ledger_entries')
    .columns(['organization_id', 'entry_date', 'id'])
    .execute();

  await db.schema
    .createTable('ledger_allocations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('entry_id', t.id, (c) => c.notNull().references('ledger_entries.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('category_id', t.id, (c) => c.notNull().references('books_categories.id'))
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('tax_minor', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_allocations_entry')
    .on('ledger_allocations')
    .columns(['entry_id'])
    .execute();

  await db.schema
    .createTable('bank_transactions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', t.id, (c) => c.notNull().references('books_accounts.id'))
    .addColumn('card_id', t.id, (c) => c.references('books_cards.id'))
    .addColumn('booked_date', date, (c) => c.notNull())
    .addColumn('value_date', date)
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('original_amount_minor', t.bigint)
    .addColumn('original_currency', 'text')
    .addColumn('fees_minor', t.bigint)
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('merchant', 'text', (c) => c.notNull())
    .addColumn('counterparty_name', 'text')
    .addColumn('counterparty_iban', 'text')
    .addColumn('bank_reference', 'text')
    // Description folded for the dedupe comparison (lowercase, single spaces).
    .addColumn('dedupe_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // unmatched | matched | excluded
    .addColumn('note', 'text')
    .addColumn('category_hint', 'text')
    .addColumn('source', 'text', (c) => c.notNull()) // manual | import
    .addColumn('import_id', t.id, (c) => c.references('books_jobs.id'))
    .addColumn('line_number', 'integer')
    .addColumn('receipt_id', t.id)
    .addColumn('entry_id', t.id, (c) => c.references('ledger_entries.id'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bank_transactions_org_booked')
    .on('bank_transactions')
    .columns(['organization_id', 'booked_date', 'id'])
    .execute();
  await db.schema
    .createIndex('bank_transactions_account_ref')
    .on('bank_transactions')
    .columns(['account_id', 'bank_reference'])
    .execute();
  await db.schema
    .createIndex('bank_transactions_account_amount')
    .on('bank_transactions')
    .columns(['account_id', 'amount_minor', 'booked_date'])
    .execute();
  await db.schema
    .createIndex('bank_transactions_import')
    .on('bank_transactions')
    .columns(['import_id'])
    .execute();
  // attention.mine: card transactions without a receipt that are not excluded.
  await db.schema
    .createIndex('bank_transactions_attention')
    .on('bank_transactions')
    .columns(['card_id', 'booked_date', 'id'])
    .where(sql<boolean>`receipt_id is null and status <> 'excluded'`)
    .execute();
}
