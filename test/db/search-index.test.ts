import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { ensureSearchIndex } from '../../src/db/search-index.ts';
import { dbBool } from '../../src/db/values.ts';
import { nameFilter } from '../../src/operations/contractors/store.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

/** Migration 0018 backfills rows that existed before it; a missing PostgreSQL index is rebuilt at start. */
for (const dialect of DIALECTS) {
  describe(`search index (${dialect})`, () => {
    let database: TestDatabase;
    const organizationId = '0190a000-0000-7000-8000-000000000001';
    const contractorId = '0190a000-0000-7000-8000-000000000002';

    const found = async (query: string) =>
      (
        await database.db.kysely
          .selectFrom('contractors as c')
          .select('c.id')
          .where('c.organization_id', '=', organizationId)
          .where(nameFilter(query, dialect))
          .execute()
      ).map((row) => row.id);

    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    it('indexes contractors written before the migration ran', async () => {
      const { kysely } = database.db;
      // Undo 0018, write a contractor as an older version would have, and migrate again.
      if (dialect === 'sqlite') {
        for (const trigger of [
          'contractor_search_insert',
          'contractor_search_update',
          'contractor_search_delete',
        ])
          await sql`drop trigger ${sql.raw(trigger)}`.execute(kysely);
        await sql`drop table contractor_search`.execute(kysely);
        await sql`drop table contractor_search_rows`.execute(kysely);
      } else {
        await sql`drop index contractors_display_name_trgm`.execute(kysely);
        await sql`drop index contractors_legal_name_trgm`.execute(kysely);
      }
      await sql`delete from kysely_migration where name = '0018-search-index'`.execute(kysely);
      const now = new Date().toISOString();
      await kysely
        .insertInto('organizations')
        .values({ id: organizationId, name: 'Org', time_zone: 'UTC', created_at: now, updated_at: now })
        .execute();
      await kysely
        .insertInto('contractors')
        .values({
          id: contractorId,
          organization_id: organizationId,
          display_name: 'Older Contractor',
          legal_name: 'Older Contractor GmbH',
          email: 'older@example.com',
          email_normalized: 'older@example.com',
          active: dbBool(true),
          tax_identity_confirmed: dbBool(false),
          revision: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await migrateToLatest(database.db);
      assert.deepEqual(await found('gmbh'), [contractorId]);
      assert.deepEqual(await found('older con'), [contractorId]);
      assert.deepEqual(await found('younger'), []);
    });

    it('reports the index present, and rebuilds a missing PostgreSQL one at start', async () => {
      assert.deepEqual(await ensureSearchIndex(database.db), { indexed: true });
      if (dialect !== 'postgres') return;
      await sql`drop index contractors_legal_name_trgm`.execute(database.db.kysely);
      assert.deepEqual(await ensureSearchIndex(database.db), { indexed: true });
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
        where indexname like 'contractors_%_trgm' order by indexname`.execute(database.db.kysely);
      assert.deepEqual(
        indexes.rows.map((row) => row.indexname),
        ['contractors_display_name_trgm', 'contractors_legal_name_trgm'],
      );
    });
  });
}
