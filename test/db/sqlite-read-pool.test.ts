import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../src/db/database.ts';

/**
 * SQLite reads outside a transaction run on read-only connections in worker threads; everything
 * in a transaction, and every write, stays on the writer (docs/decisions.md 266).
 */
describe('SQLite read pool', () => {
  let dir: string;
  let db: Db;
  const count = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0]?.n);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accounting-read-pool-'));
    db = openDatabase({ dataDir: dir, sqliteReaders: 2 });
    await sql`create table t (id integer primary key, body blob)`.execute(db.kysely);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads during a write transaction without waiting for it, and sees its rows once committed', async () => {
    const before = await count();
    let readInside: number | undefined;
    let seenInside: number | undefined;
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t (body) values (${Buffer.from('x')})`.execute(trx);
      // On the one writer connection this read would wait for the transaction to end (deadlock).
      readInside = await count();
      seenInside = Number((await sql<{ n: number }>`select count(*) as n from t`.execute(trx)).rows[0]?.n);
    });
    assert.equal(readInside, before, 'a read outside the transaction sees only committed rows');
    assert.equal(seenInside, before + 1, 'the transaction reads its own write');
    assert.equal(await count(), before + 1, 'committed: the next read sees it');
  });

  it('sees every committed write at once (read your writes)', async () => {
    for (let i = 0; i < 50; i += 1) {
      const inserted = await sql`insert into t (body) values (${Buffer.from([i])}) returning id`.execute(
        db.kysely,
      );
      const id = (inserted.rows[0] as { id: number }).id;
      const row = await db.kysely
        .selectFrom(sql<{ id: number; body: Buffer }>`t`.as('t'))
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      assert.ok(row, `row ${id} is visible right after its insert`);
      assert.ok(Buffer.isBuffer(row.body), 'blobs come back as Buffer, as from the writer');
      assert.deepEqual([...row.body], [i]);
    }
  });

  it('keeps the event loop and other reads moving while a slow read runs', async () => {
    const order: string[] = [];
    const slow = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000)
      select count(*) as c from n`
      .execute(db.kysely)
      .then(() => order.push('slow read'));
    const quick = count().then(() => order.push('quick read'));
    const tick = new Promise<void>((resolve) => setImmediate(resolve)).then(() => order.push('event loop'));
    await Promise.all([slow, quick, tick]);
    assert.equal(order.at(-1), 'slow read', order.join(', '));
  });

  it('reports a failed read as the writer would', async () => {
    await assert.rejects(sql`select * from missing_table`.execute(db.kysely), /no such table/);
    assert.ok((await count()) > 0, 'the pool still answers');
  });

  it('with no readers runs everything on the writer', async () => {
    const plain = openDatabase({ dataDir: dir, sqliteReaders: 0 });
    assert.equal(
      Number((await sql<{ n: number }>`select count(*) as n from t`.execute(plain.kysely)).rows[0]?.n),
      await count(),
    );
    await plain.close();
  });
});
