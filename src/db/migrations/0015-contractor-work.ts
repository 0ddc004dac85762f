import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Contractor work (issue 14): hours with states and amounts, agreements sent from templates and
 * signed in the portal, and payouts with their lines. The three tables of 0002 were placeholders
 * that no operation ever wrote (only test seeds), so they are recreated with their real shape
 * rather than altered column by column (SQLite cannot add NOT NULL columns without defaults).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // A suspended organization's contractors lose portal access at once (docs/contractors.md).
  await db.schema.alterTable('organizations').addColumn('suspended_at', t.timestamp).execute();

  await db.schema.dropTable('contractor_hours').execute();
  await db.schema.dropTable('contractor_agreements').execute();
  await db.schema.dropTable('contractor_payments').execute();

  await db.schema
    .createTable('contractor_payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // unpaid -> paid (contractors.payouts.markPaid).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pay_cadence', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('paid_on', 'text')
    .addColumn('reference', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_payments_contractor_status')
    .on('contractor_payments')
    .columns(['organization_id', 'contractor_id', 'status'])
    .execute();
  await db.schema
    .createIndex('contractor_payments_paid_on')
    .on('contractor_payments')
    .columns(['organization_id', 'paid_on'])
    .execute();

  await db.schema
    .createTable('contractor_hours')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('work_date', 'text', (c) => c.notNull())
    // Hundredths of an hour: exact, and "7.25" hours is 725.
    .addColumn('hours_hundredths', t.bigint, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // The role's rate when last submitted or updated, and the amount it gives (minor units).
    .addColumn('rate_minor', t.bigint, (c) => c.notNull())
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // submitted -> approved -> paid, or submitted -> rejected.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rejection_reason', 'text')
    .addColumn('submitted_by_type', 'text', (c) => c.notNull())
    .addColumn('submitted_by_id', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', t.timestamp)
    .addColumn('payout_id', t.id, (c) => c.references('contractor_payments.id'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_hours_contractor_status')
    .on('contractor_hours')
    .columns(['organization_id', 'contractor_id', 'status'])
    .execute();

  await db.schema
    .createTable('contractor_payout_lines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('payout_id', t.id, (c) => c.notNull().references('contractor_payments.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hours_id', t.id, (c) => c.references('contractor_hours.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_payout_lines_payout')
    .on('contractor_payout_lines')
    .columns(['organization_id', 'payout_id', 'position'])
    .execute();

  await db.schema
    .createTable('contractor_agreements')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('template_id', t.id, (c) => c.notNull().references('agreement_templates.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    // The exact document the contractor reads and signs, fixed at sending.
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('document', t.blob, (c) => c.notNull())
    .addColumn('document_sha256', 'text', (c) => c.notNull())
    // sent -> signed, or sent/signed -> voided.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signed_at', t.timestamp)
    .addColumn('signed_name', 'text')
    .addColumn('signed_address', 'text')
    .addColumn('signed_user_agent', 'text')
    .addColumn('signed_pdf', t.blob)
    .addColumn('voided_at', t.timestamp)
    .addColumn('void_reason', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_agreements_contractor')
    .on('contractor_agreements')
    .columns(['organization_id', 'contractor_id', 'status'])
    .execute();
}
