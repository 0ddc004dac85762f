import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Issue 26: the start of the service period a subscription invoice bills (read from the document,
 * the whole period stays in `fields`). Its charge is expected there, not at the printed date, so a
 * new transaction looks for waiting receipts by this date too (processing/candidates.ts).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const date = t.id === 'uuid' ? 'date' : 'text';
  await db.schema.alterTable('receipts').addColumn('service_period_start', date).execute();
}
