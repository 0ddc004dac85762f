import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Operator experience (issue 16): the previous signing secret of an endpoint, kept sealed for the
 * rotation overlap (docs/webhook-signatures.md, "Rotation").
 */
export async function up(db: Kysely<unknown>, types: ColumnTypes): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('previous_secret_until', types.timestamp)
    .execute();
}
