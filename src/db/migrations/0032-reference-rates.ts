import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Issue 26 part 3: exchange rates matching can use with no network at match time.
 *
 * - `reference_rates`: one row per date and currency, units per 1 EUR as the ECB quotes them, kept
 *   as the decimal text of the file (exact across both databases), with the label of where it came
 *   from. Public data shared by every organization, so no organization column (decision 490).
 * - `reference_rate_source`: one row per configured source, the state of the job that keeps the
 *   table: when it is due, who holds it (a lease any process may take once it runs out), and how
 *   the last attempt went (decision 492).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const date = t.id === 'uuid' ? 'date' : 'text';
  await db.schema
    .createTable('reference_rates')
    .addColumn('rate_date', date, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('reference_rates_pk', ['rate_date', 'currency'])
    .execute();
  await db.schema
    .createTable('reference_rate_source')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('next_due_at', t.timestamp, (c) => c.notNull())
    .addColumn('lease_until', t.timestamp)
    .addColumn('lease_token', 'text')
    .addColumn('last_attempt_at', t.timestamp)
    .addColumn('last_success_at', t.timestamp)
    .addColumn('last_error_code', 'text')
    .addColumn('last_error_message', 'text')
    .addColumn('newest_date', date)
    .addColumn('rows_loaded', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
