import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { readJobFile } from '../../src/books/jobs-queue.ts';
import { columnTypes } from '../../src/db/migrations/column-types.ts';
import { MIGRATIONS } from '../../src/db/migrations/index.ts';
import { readFile, sha256Of } from '../../src/files/store.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

/** Migration 0031 moves the bytes of files stored before it into `file_parts` (decision 458). */
for (const dialect of DIALECTS) {
  describe(`file parts migration (${dialect})`, () => {
    let database: TestDatabase;
    const organizationId = '0190a000-0000-7000-8000-0000000000f1';
    const fileId = '0190a000-0000-7000-8000-0000000000f2';
    const jobId = '0190a000-0000-7000-8000-0000000000f3';

    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    it('keeps the bytes of every file and job file stored before it, readable and verified', async () => {
      const { kysely } = database.db;
      const types = columnTypes(dialect);
      // Undo 0031 on the empty tables, write as an older version did, then run 0031 again.
      await sql`drop table file_parts`.execute(kysely);
      await sql`alter table stored_files add column bytes ${sql.raw(types.blob)}`.execute(kysely);
      await sql`alter table books_job_files add column bytes ${sql.raw(types.blob)}`.execute(kysely);
      const now = new Date().toISOString();
      await kysely
        .insertInto('organizations')
        .values({ id: organizationId, name: 'Org', time_zone: 'UTC', created_at: now, updated_at: now })
        .execute();
      // Larger than a part: an old file stays one part and is still read a MiB at a time.
      const original = Buffer.alloc(1024 * 1024 + 3, 0x5a);
      await sql`insert into stored_files (id, organization_id, sha256, size, media_type, file_name, bytes, created_at)
        values (${fileId}, ${organizationId}, ${sha256Of(original)}, ${original.length}, 'application/pdf', 'old.pdf', ${original}, ${now})`.execute(
        kysely,
      );
      const statement = Buffer.from('Date,Amount\n2026-01-02,-5.00\n');
      await sql`insert into books_jobs (id, organization_id, kind, state, params, file_size, progress, rejected, attempts, created_by, created_at)
        values (${jobId}, ${organizationId}, 'statement_import', 'succeeded', '{}', ${statement.length}, '{}', '[]', 1, 'test', ${now})`.execute(
        kysely,
      );
      await sql`insert into books_job_files (job_id, organization_id, bytes)
        values (${jobId}, ${organizationId}, ${statement})`.execute(kysely);

      const migration = MIGRATIONS['0031-file-parts'];
      assert.ok(migration);
      await kysely.transaction().execute((trx) => migration.up(trx as unknown as Kysely<unknown>, types));

      const file = await readFile(kysely, organizationId, fileId);
      assert.ok(file?.bytes.equals(original));
      assert.ok((await readJobFile(kysely, jobId))?.equals(statement));
      const columns = async (table: string) =>
        (await kysely.introspection.getTables()).find((t) => t.name === table)?.columns.map((c) => c.name);
      assert.equal((await columns('stored_files'))?.includes('bytes'), false);
      assert.equal((await columns('books_job_files'))?.includes('bytes'), false);
    });
  });
}
