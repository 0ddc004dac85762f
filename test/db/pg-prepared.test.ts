import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { PREPARED } from '../../src/db/pg-prepared.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

const postgres = DIALECTS.includes('postgres') ? describe : describe.skip;

postgres('named prepared statements (postgres)', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('postgres');
    await sql`create table prepared_probe (id integer primary key, amount integer not null)`.execute(
      database.db.kysely,
    );
    await sql`insert into prepared_probe values (1, 5)`.execute(database.db.kysely);
  });
  after(() => database.drop());

  it('runs a marked statement by name, and prepares it again once a migration changed its result type', async () => {
    // One connection, so the statement is prepared on the connection that later sees the change.
    await database.db.kysely.connection().execute(async (db) => {
      const read = () =>
        sql<{
          amount: unknown;
        }>`${sql.raw(PREPARED)}select amount from prepared_probe where id = ${1}`.execute(db);
      assert.equal((await read()).rows[0]?.amount, 5);
      const named = await sql<{ n: string }>`select count(*) as n from pg_prepared_statements`.execute(db);
      assert.equal(Number(named.rows[0]?.n), 1, 'prepared once on this connection');
      await sql`alter table prepared_probe alter column amount type bigint`.execute(db);
      await assert.rejects(read(), /must not change result type/);
      // The same text again: prepared afresh under a new name, with the new type (bigint comes back
      // as text), and used by name from then on.
      assert.equal((await read()).rows[0]?.amount, '5');
      assert.equal((await read()).rows[0]?.amount, '5');
      const after = await sql<{
        name: string;
      }>`select name from pg_prepared_statements order by name`.execute(db);
      assert.deepEqual(
        after.rows.map((row) => row.name.replace(/^prepared_\d+/, 'prepared_n')),
        ['prepared_n', 'prepared_n_1'],
      );
    });
  });
});
