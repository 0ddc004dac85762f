import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('job_roles')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('hourly_rate_minor', t.bigint)
    .addColumn('currency', 'text')
    .addColumn('pay_cadence', 'text')
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('job_roles_org_name_unique', ['organization_id', 'name'])
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
}
