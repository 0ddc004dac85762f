import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // Installation-wide values (the invitation token secret); the one table without organization_id.
  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('contractor_invitations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('organization_id', t.id, (c) => c.notNull().references('organizations.id'))
    .addColumn('contractor_id', t.id, (c) => c.notNull().references('contractors.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .addColumn('replaced_at', t.timestamp)
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addCheckConstraint(
      'contractor_invitations_status',
      sql`status in ('open', 'accepted', 'revoked', 'replaced', 'expired')`,
    )
    .execute();
  // Lists (newest first) and the rolling 24-hour count both read by contractor and time.
  await db.schema
    .createIndex('contractor_invitations_contractor')
    .on('contractor_invitations')
    .columns(['organization_id', 'contractor_id', 'created_at'])
    .execute();
  // At most one open invitation per contractor, whatever races happen between requests.
  await db.schema
    .createIndex('contractor_invitations_one_open')
    .on('contractor_invitations')
    .column('contractor_id')
    .unique()
    .where(sql<boolean>`status = 'open'`)
    .execute();
}
