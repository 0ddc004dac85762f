import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // Every role carries its pay terms: the directory shows rate, currency and cadence for any role.
  await db.schema
    .createTable('job_roles')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Lower-cased copy: "Designer" and "designer" are the same role name on both databases.
    .addColumn('name_normalized', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('hourly_rate_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('pay_cadence', 'text', (c) => c.notNull())
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('job_roles_org_name_unique', ['organization_id', 'name_normalized'])
    .execute();

  await db.schema
    .createTable('contractors')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    // Lower-cased copy: uniqueness ignores case on both databases.
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('job_role_id', t.id, (c) => c.references('job_roles.id'))
    .addColumn('joined_at', t.timestamp)
    .addColumn('tax_residency', 'text')
    .addColumn('tax_services_in_canada', t.bool)
    .addColumn('tax_identity_confirmed', t.bool, (c) => c.notNull())
    .addColumn('tax_reviewed_at', t.timestamp)
    .addColumn('tax_reviewed_by', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('contractors_org_email_unique', ['organization_id', 'email_normalized'])
    .execute();
  await db.schema
    .createIndex('contractors_org_created')
    .on('contractors')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // Agreement templates: Markdown drafts and uploaded originals, content kept in the database
  // (at most 5 MiB each) so a backup of the database is a backup of the templates.
  await db.schema
    .createTable('agreement_templates')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', t.blob, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('agreement_templates_org_created')
    .on('agreement_templates')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // The minimal data behind "agreement on file", "pending hours" and "unpaid payments" (see
  // docs/contractors.md): later features (signing, time tracking, payouts) write these rows.
  await db.schema
    .createTable('contractor_agreements')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('template_id', t.id, (c) => c.notNull().references('agreement_templates.id'))
    .addColumn('on_file_at', t.timestamp, (c) => c.notNull())
    .addColumn('voided_at', t.timestamp)
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_agreements_contractor')
    .on('contractor_agreements')
    .columns(['organization_id', 'contractor_id'])
    .execute();

  await db.schema
    .createTable('contractor_hours')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('work_date', 'text', (c) => c.notNull())
    // Hundredths of an hour: exact, and "7.25" hours is 725.
    .addColumn('hours_hundredths', t.bigint, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_hours_contractor_status')
    .on('contractor_hours')
    .columns(['organization_id', 'contractor_id', 'status'])
    .execute();

  await db.schema
    .createTable('contractor_payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('amount_minor', t.bigint, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contractor_payments_contractor_status')
    .on('contractor_payments')
    .columns(['organization_id', 'contractor_id', 'status'])
    .execute();
}
