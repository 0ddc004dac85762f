import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Recurring invoice schedules and payment plans (one table, so `invoices.schedules.pause` takes
 * either id), the run log that makes each slot happen exactly once, payment-plan installments,
 * and notice bookkeeping (each reminder or notice is sent once). See docs/invoicing.md.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // Same civil-date column as 0005-invoicing: `date` on PostgreSQL, `YYYY-MM-DD` text on SQLite.
  const date = t.id === 'uuid' ? 'date' : 'text';

  await db.schema
    .createTable('invoice_schedules')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', 'text', (c) => c.notNull()) // recurring | payment_plan
    .addColumn('status', 'text', (c) => c.notNull()) // active | paused | cancelled | completed
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('party_id', t.id, (c) => c.notNull().references('parties.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    // Recurring: { lines, paymentTermsDays, notes }; null for payment plans.
    .addColumn('template', t.json)
    // Recurring: the wire cadence; payment plans: the equal-split interval (null when custom).
    .addColumn('cadence', t.json)
    .addColumn('start_date', date, (c) => c.notNull())
    .addColumn('end_condition', t.json, (c) => c.notNull())
    .addColumn('auto_send', t.bool, (c) => c.notNull())
    // Payment plans: the invoice whose balance is split.
    .addColumn('invoice_id', t.id, (c) => c.references('invoices.id'))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    // Recurring: the next slot to prepare (null once cancelled or completed).
    .addColumn('next_run_date', date)
    .addColumn('last_run_date', date)
    .addColumn('occurrences_created', 'integer', (c) => c.notNull())
    // Day the schedule last became active (created or resumed): overdue notices for installments
    // that fell due while paused are not sent afterwards.
    .addColumn('active_since', date, (c) => c.notNull())
    .addColumn('paused_at', t.timestamp)
    .addColumn('cancelled_at', t.timestamp)
    .addColumn('completed_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoice_schedules_org_created')
    .on('invoice_schedules')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('invoice_schedules_due')
    .on('invoice_schedules')
    .columns(['status', 'next_run_date'])
    .execute();
  // At most one live plan per invoice; a cancelled one can be replaced.
  await db.schema
    .createIndex('invoice_schedules_one_plan_per_invoice')
    .on('invoice_schedules')
    .column('invoice_id')
    .unique()
    .where(sql<boolean>`kind = 'payment_plan' and status <> 'cancelled'`)
    .execute();

  // One row per (schedule, slot): the unique key is what makes "exactly once" hold when several
  // workers race or a worker retries after a crash.
  await db.schema
    .createTable('schedule_runs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('schedule_id', t.id, (c) => c.notNull().references('invoice_schedules.id'))
    .addColumn('run_date', date, (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull()) // draft | sent | skipped | failed
    .addColumn('invoice_id', t.id, (c) => c.references('invoices.id'))
    .addColumn('error_code', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('schedule_runs_once', ['schedule_id', 'run_date'])
    .execute();

  await db.schema
    .createTable('payment_plan_installments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('schedule_id', t.id, (c) => c.notNull().references('invoice_schedules.id'))
    .addColumn('invoice_id', t.id, (c) => c.notNull().references('invoices.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('due_date', date, (c) => c.notNull())
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    // Installment n is paid once the invoice's amount_paid reaches this: what was paid before
    // the plan plus installments 1..n. Payments need no link to installments.
    .addColumn('paid_threshold_minor', t.bigint, (c) => c.notNull())
    .addColumn('reminded_at', t.timestamp)
    .addColumn('paid_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('payment_plan_installments_sequence', ['schedule_id', 'sequence'])
    .execute();
  await db.schema
    .createIndex('payment_plan_installments_due')
    .on('payment_plan_installments')
    .columns(['paid_at', 'due_date'])
    .execute();

  // A notice or reminder is sent when its row is inserted; the unique key makes it once.
  await db.schema
    .createTable('invoicing_notices')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', t.id, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_date', date, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('invoicing_notices_once', ['target_type', 'target_id', 'kind', 'target_date'])
    .execute();
}
