import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { cachingSqliteDatabase } from '../../src/db/statement-cache.ts';

describe('SQLite statement cache', () => {
  it('hands back the same prepared statement for the same SQL, and evicts the least recently used', () => {
    const db = cachingSqliteDatabase(new BetterSqlite3(':memory:'), 2);
    const one = db.prepare('select 1');
    assert.equal(db.prepare('select 1'), one);
    const two = db.prepare('select 2');
    assert.equal(db.prepare('select 1'), one, 'select 1 is now the most recent');
    db.prepare('select 3'); // evicts select 2
    assert.equal(db.prepare('select 1'), one);
    assert.notEqual(db.prepare('select 2'), two);
    db.close();
  });

  it('gives the right rows through Kysely across repeated queries, writes and a schema change', async () => {
    type Tables = { t: { id: number; name: string; note?: string | null } };
    const kysely = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: cachingSqliteDatabase(new BetterSqlite3(':memory:')) }),
    });
    await sql`create table t (id integer primary key, name text not null)`.execute(kysely);
    for (const id of [1, 2, 3])
      await kysely
        .insertInto('t')
        .values({ id, name: `n${id}` })
        .execute();
    const byId = (id: number) => kysely.selectFrom('t').selectAll().where('id', '=', id).executeTakeFirst();
    assert.deepEqual(await byId(2), { id: 2, name: 'n2' });
    assert.deepEqual(await byId(3), { id: 3, name: 'n3' });
    const updated = await kysely.updateTable('t').set({ name: 'x' }).where('id', '>', 1).executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 2n);
    await sql`alter table t add column note text`.execute(kysely);
    assert.deepEqual(
      await byId(2),
      { id: 2, name: 'x', note: null },
      'the cached select * sees the new column',
    );
    await kysely.destroy();
  });
});
