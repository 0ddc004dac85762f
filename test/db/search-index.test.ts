import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import {
  forgetNameStatistics,
  type NameFilterLimits,
  nameFilter,
} from '../../src/contractors/name-search.ts';
import { columnTypes } from '../../src/db/migrations/column-types.ts';
import { MIGRATIONS } from '../../src/db/migrations/index.ts';
import { ensureSearchIndex } from '../../src/db/search-index.ts';
import { dbBool } from '../../src/db/values.ts';
import { contractorPageIds } from '../../src/operations/contractors/store.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

/** Migration 0018 backfills rows that existed before it; a missing PostgreSQL index is rebuilt at start. */
for (const dialect of DIALECTS) {
  describe(`search index (${dialect})`, () => {
    let database: TestDatabase;
    const organizationId = '0190a000-0000-7000-8000-000000000001';
    const contractorId = '0190a000-0000-7000-8000-000000000002';

    const found = async (query: string, limits?: NameFilterLimits, offset = 0) => {
      const { kysely } = database.db;
      const search = await nameFilter(kysely, query, dialect, limits);
      const rows = await contractorPageIds(kysely, organizationId, {
        limit: 1000,
        offset,
        filters: [search.where],
        newest: search.newest,
      }).execute();
      return rows.map((row) => row.id);
    };
    const insertContractor = async (
      id: string,
      displayName: string,
      createdAt: string,
      organization = organizationId,
    ) => {
      await database.db.kysely
        .insertInto('contractors')
        .values({
          id,
          organization_id: organization,
          display_name: displayName,
          legal_name: `${displayName} GmbH`,
          email: `${id}@example.com`,
          email_normalized: `${id}@example.com`,
          active: dbBool(true),
          tax_identity_confirmed: dbBool(false),
          revision: 1,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
    };

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
      const now = new Date().toISOString();
      await kysely
        .insertInto('organizations')
        .values({ id: organizationId, name: 'Org', time_zone: 'UTC', created_at: now, updated_at: now })
        .execute();
      await insertContractor(contractorId, 'Older Contractor', now);
      // Run 0018 again as it ran on a database that already held contractors (later migrations
      // stay recorded, so the migrator itself would refuse to go back).
      const searchIndex = MIGRATIONS['0018-search-index'];
      assert.ok(searchIndex);
      await kysely
        .transaction()
        .execute((trx) => searchIndex.up(trx as unknown as Kysely<unknown>, columnTypes(dialect)));
      assert.deepEqual(await found('gmbh'), [contractorId]);
      assert.deepEqual(await found('older con'), [contractorId]);
      assert.deepEqual(await found('younger'), []);
      if (dialect === 'postgres') {
        // On PostgreSQL the answers above are the same with or without an index: check it exists.
        const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
          where schemaname = current_schema() and indexname like 'contractors_%_trgm' order by indexname`.execute(
          kysely,
        );
        assert.deepEqual(
          indexes.rows.map((row) => row.indexname),
          ['contractors_display_name_trgm', 'contractors_legal_name_trgm'],
        );
      }
    });

    it('gives the same answers on every path: rare phrase, common phrase, short query window', async () => {
      // Five more, a second apart, newest last: names Alpha 1..5; all share "alpha" and "gmbh".
      const ids: string[] = [];
      for (let i = 1; i <= 5; i += 1) {
        const id = `0190a000-0000-7000-8000-00000000010${i}`;
        ids.push(id);
        await insertContractor(id, `Alpha ${i}`, `2030-01-01T00:00:0${i}.000Z`);
      }
      const newest = [...ids].reverse();
      const few = { commonMatches: 3, shortWindow: 2 };
      // "alpha" matches 5 >= 3: the common path (the newest-first walk) on SQLite.
      assert.deepEqual(await found('alpha', few), newest);
      assert.deepEqual(await found('alpha'), newest, 'the rare path (FTS5 on SQLite)');
      assert.deepEqual(await found('pha 3', few), [ids[2]]);
      assert.deepEqual(await found('gmbh', few), [...newest, contractorId], 'the older contractor too');
      // One or two characters: only the shortWindow newest contractors are looked at.
      assert.deepEqual(await found('a ', few), newest.slice(0, 2));
      assert.deepEqual(await found('3', few), [], 'Alpha 3 is outside the two newest');
      assert.deepEqual(await found('3'), [ids[2]], 'inside the default window');
      assert.deepEqual(await found('zz', few), []);
      assert.deepEqual(await found('A ', few), newest.slice(0, 2), 'case-insensitive');
      assert.deepEqual(await found('_', few), [], 'a LIKE wildcard is a plain character');
      assert.deepEqual(await found('a ', few, 1), newest.slice(1, 2), 'an offset counts within the window');
      // Another organization's newer contractor takes no place in this one's window.
      const otherOrganization = '0190a000-0000-7000-8000-000000000009';
      await database.db.kysely
        .insertInto('organizations')
        .values({
          id: otherOrganization,
          name: 'Other',
          time_zone: 'UTC',
          created_at: '2030-01-01T00:00:00.000Z',
          updated_at: '2030-01-01T00:00:00.000Z',
        })
        .execute();
      await insertContractor(
        '0190a000-0000-7000-8000-000000000999',
        'Alpha 9',
        '2030-06-01T00:00:00.000Z',
        otherOrganization,
      );
      assert.deepEqual(await found('a ', few), newest.slice(0, 2));
      assert.deepEqual(await found('alpha'), newest);
    });

    it('leaves a common word out of the index condition and still checks the whole query (PostgreSQL)', async () => {
      if (dialect !== 'postgres') return;
      const { kysely } = database.db;
      // No background ANALYZE: the test says when the statistics appear.
      await sql`alter table contractors set (autovacuum_enabled = false)`.execute(kysely);
      // 200 names sharing "crew": after ANALYZE, PostgreSQL's statistics show "crew" in every name.
      const crew: string[] = [];
      for (let i = 0; i < 200; i += 1) {
        const id = `0190a000-0000-7000-8000-${String(1000 + i).padStart(12, '0')}`;
        crew.push(id);
        await insertContractor(id, `Crew ${i} `, new Date(Date.UTC(2031, 0, 1, 0, 0, i)).toISOString());
      }
      const idOf = (i: number) => crew[i];
      const compiled = async (query: string) =>
        (await nameFilter(kysely, query, dialect)).where.compile(kysely).parameters;

      // Before ANALYZE there are no statistics: the whole pattern is the index condition.
      forgetNameStatistics(kysely);
      assert.deepEqual(await compiled('crew 150 '), ['%crew 150 %', '%crew 150 %']);
      await sql`analyze contractors`.execute(kysely);
      forgetNameStatistics(kysely);
      // Only the rare word in the index condition, then the whole query rechecked.
      assert.deepEqual(await compiled('crew 150 '), ['%150%', '%150%', 'crew 150 ', 'crew 150 ']);
      assert.deepEqual(await found('crew 150 '), [idOf(150)]);
      assert.deepEqual(
        await found('Crew 15'),
        [159, 158, 157, 156, 155, 154, 153, 152, 151, 150, 15].map(idOf),
      );
      assert.deepEqual(await found('150 crew'), [], 'the words in another order are another substring');
      // No word of three characters besides the common one: the whole pattern again.
      assert.deepEqual(await compiled('crew 7'), ['%crew 7%', '%crew 7%']);
      assert.deepEqual(await found('crew 7 '), [idOf(7)]);
      // Every word common: the whole pattern (the planner walks newest first).
      assert.deepEqual(await compiled('crew gmbh'), ['%crew gmbh%', '%crew gmbh%']);

      // Two characters: ASCII-only lower-casing where it gives the locale's answer, lower() where
      // a non-ASCII capital lowers to the query's letter (U+0130 to i, the Kelvin sign to k).
      const ilker = '0190a000-0000-7000-8000-000000002001';
      const kelvin = '0190a000-0000-7000-8000-000000002002';
      await insertContractor(ilker, 'İlker', '2032-01-01T00:00:00.000Z');
      await insertContractor(kelvin, '\u212Aelvin', '2032-01-01T00:00:01.000Z');
      // (Under ICU, İ lowers to i and a combining dot, and 'il' matches nothing, as before this
      // rule; the test databases use libc's C.UTF-8.)
      assert.deepEqual(await found('iL'), [ilker]);
      assert.deepEqual(await found('kE'), [kelvin, ilker], 'ilker has ke too');
      assert.deepEqual(await found('EL'), [kelvin]);
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
