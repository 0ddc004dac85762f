import type { Kysely } from 'kysely';

/**
 * transactions.imports.list (issue 29 part 4): an account's imports, newest first, read from
 * this index instead of every job of the organization.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('books_jobs_account_created')
    .on('books_jobs')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
}
