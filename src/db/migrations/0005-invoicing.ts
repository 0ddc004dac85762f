import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Parties (the customers invoiced), invoices with their lines and payments, and the
 * per-organization invoice number sequence. Money columns are integer minor units (bigint);
 * quantities and tax rates are decimal strings (never floats); dates are civil dates
 * (`date` on PostgreSQL, `YYYY-MM-DD` text on SQLite: both compare correctly as strings).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const date = t.id === 'uuid' ? 'date' : 'text';

  await db.schema
    .createTable('parties')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    // Lower-cased copy; NULLs never collide, so many parties may have no email.
    .addColumn('email_normalized', 'text')
    .addColumn('address_lines', t.json, (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('tax_id', 'text')
    .addColumn('default_currency', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('parties_org_email_unique', ['organization_id', 'email_normalized'])
    .execute();
  await db.schema
    .createIndex('parties_org_created')
    .on('parties')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('party_id', t.id, (c) => c.notNull().references('parties.id'))
    // Assigned on sending from invoice_number_sequences; drafts have none.
    .addColumn('number', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('issue_date', date, (c) => c.notNull())
    .addColumn('due_date', date, (c) => c.notNull())
    .addColumn('payment_terms_days', 'integer')
    .addColumn('scheduled_send_date', date)
    .addColumn('subtotal_minor', t.bigint, (c) => c.notNull())
    .addColumn('tax_minor', t.bigint, (c) => c.notNull())
    .addColumn('total_minor', t.bigint, (c) => c.notNull())
    .addColumn('amount_paid_minor', t.bigint, (c) => c.notNull())
    .addColumn('balance_minor', t.bigint, (c) => c.notNull())
    .addColumn('notes', 'text')
    // Party and organization details as printed when sent, so the PDF never changes afterwards.
    .addColumn('billing_snapshot', t.json)
    // Set by the recurring-invoice generator; (schedule_id, schedule_occurrence) is unique so
    // one occurrence can never produce two invoices, whatever the number of workers.
    .addColumn('schedule_id', t.id)
    .addColumn('schedule_occurrence', 'integer')
    // Markers for the deadline worker, so each notice/event happens once.
    .addColumn('due_soon_notified_at', t.timestamp)
    .addColumn('overdue_at', t.timestamp)
    .addColumn('sent_at', t.timestamp)
    .addColumn('paid_at', t.timestamp)
    .addColumn('voided_at', t.timestamp)
    .addColumn('void_reason', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('invoices_org_number_unique', ['organization_id', 'number'])
    .addUniqueConstraint('invoices_schedule_occurrence_unique', ['schedule_id', 'schedule_occurrence'])
    .execute();
  await db.schema
    .createIndex('invoices_org_created')
    .on('invoices')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('invoices_org_status_due')
    .on('invoices')
    .columns(['organization_id', 'status', 'due_date'])
    .execute();

  await db.schema
    .createTable('invoice_lines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('invoice_id', t.id, (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // Decimal strings: quantity up to 9.4 digits, tax rate a percentage with up to 4 decimals.
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('unit_amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('tax_rate', 'text')
    .addColumn('subtotal_minor', t.bigint, (c) => c.notNull())
    .addColumn('tax_minor', t.bigint, (c) => c.notNull())
    .addColumn('total_minor', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('invoice_lines_position_unique', ['invoice_id', 'position'])
    .execute();

  await db.schema
    .createTable('invoice_payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('invoice_id', t.id, (c) => c.notNull().references('invoices.id'))
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('paid_on', date, (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoice_payments_invoice')
    .on('invoice_payments')
    .columns(['invoice_id', 'created_at'])
    .execute();

  // One row per organization; the increment and the invoice update share a transaction, so a
  // rolled-back send gives its number back and the sequence has no gaps.
  await db.schema
    .createTable('invoice_number_sequences')
    .addColumn('organization_id', t.id, (c) => c.primaryKey().references('organizations.id'))
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .execute();
}
