import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Issue 31 (decision 458): a file's bytes move out of `stored_files.bytes` and
 * `books_job_files.bytes` into `file_parts`, one row per MiB. SQLite writes a row in one synchronous call on the event loop: a 20 MiB blob
 * held every request for 130-600 ms (bench/hostile-files.ts), a MiB costs a few milliseconds and
 * the writer yields between parts. `file_id` is the stored file's id or the job's id (both are
 * fresh UUIDs, so they never collide); `organization_id` keeps every read scoped.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('file_parts')
    .addColumn('file_id', t.id, (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('organization_id', t.id, (c) => c.notNull())
    .addColumn('bytes', t.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('file_parts_pk', ['file_id', 'part'])
    .execute();
  // Files stored before keep their bytes as one part: a part may have any size, readers go by
  // each part's own length.
  await sql`insert into file_parts (file_id, part, organization_id, bytes)
    select id, 0, organization_id, bytes from stored_files`.execute(db);
  await sql`insert into file_parts (file_id, part, organization_id, bytes)
    select job_id, 0, organization_id, bytes from books_job_files`.execute(db);
  await db.schema.alterTable('stored_files').dropColumn('bytes').execute();
  await db.schema.alterTable('books_job_files').dropColumn('bytes').execute();
}
