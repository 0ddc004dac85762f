import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../src/db/database.ts';

/**
 * SQLite reads through `readKysely` outside a transaction run on read-only connections in worker
 * threads; everything in a transaction, every write, and every query through `kysely` stays on
 * the writer (docs/decisions.md 266, 288).
 */
describe('SQLite read pool', () => {
  let dir: string;
  let db: Db;
  const count = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.readKysely)).rows[0]?.n);

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
      const row = await db.readKysely
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
      .execute(db.readKysely)
      .then(() => order.push('slow read'));
    const quick = count().then(() => order.push('quick read'));
    const tick = new Promise<void>((resolve) => setImmediate(resolve)).then(() => order.push('event loop'));
    await Promise.all([slow, quick, tick]);
    assert.equal(order.at(-1), 'slow read', order.join(', '));
  });

  it('reports a failed read as the writer would', async () => {
    await assert.rejects(sql`select * from missing_table`.execute(db.readKysely), /no such table/);
    assert.ok((await count()) > 0, 'the pool still answers');
  });

  it('sends a known statement by id, and still answers after its reader evicted or failed it', async () => {
    // Over 256 distinct texts per reader: the first ones leave both LRUs and must be sent again.
    const texts = Array.from({ length: 600 }, (_, i) => `select count(*) + ${i} as n from t`);
    const run = async (text: string) =>
      Number((await sql.raw<{ n: number }>(text).execute(db.readKysely)).rows[0]?.n);
    const base = await count();
    for (const [i, text] of texts.entries()) assert.equal(await run(text), base + i);
    await assert.rejects(sql.raw('select * from missing_table').execute(db.readKysely), /no such table/);
    // Inside a write transaction a read that fell back to the writer would wait for it to end
    // (a deadlock here); answered at once, and with the committed count, it came from a reader.
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t (body) values (${Buffer.from('y')})`.execute(trx);
      for (const i of [0, 1, 299, 400, 599]) assert.equal(await run(texts[i] as string), base + i);
      await assert.rejects(sql.raw('select * from missing_table').execute(db.readKysely), /no such table/);
    });
  });

  it('reads one committed row on the writer at once, never inside a transaction', async () => {
    const read = () => db.readCommittedRow?.('select count(*) as n from t') as { n: number } | undefined;
    const committed = read()?.n;
    assert.equal(committed, await count());
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t (body) values (${Buffer.from('z')})`.execute(trx);
      assert.equal(read(), undefined, 'the writer holds uncommitted rows: the caller must ask a reader');
    });
    assert.equal(read()?.n, (committed as number) + 1);
  });

  it('answers reads through kysely on the writer, starting no reader', async () => {
    const fresh = openDatabase({ dataDir: dir, sqliteFile: 'fresh.sqlite', sqliteReaders: 2 });
    try {
      await sql`create table u (id integer primary key)`.execute(fresh.kysely);
      await sql`insert into u (id) values (1), (2)`.execute(fresh.kysely);
      const n = await sql<{ n: number }>`select count(*) as n from u`.execute(fresh.kysely);
      assert.equal(Number(n.rows[0]?.n), 2);
      assert.equal(fresh.readersStarted?.(), 0);
      await sql`select count(*) as n from u`.execute(fresh.readKysely);
      assert.equal(fresh.readersStarted?.(), 1, 'readKysely reads go to a reader');
    } finally {
      await fresh.close();
    }
  });

  it('with no readers runs everything on the writer', async () => {
    const plain = openDatabase({ dataDir: dir, sqliteReaders: 0 });
    try {
      // The request path's Kysely too: no pool, so it is the writer's.
      assert.equal(plain.readKysely, plain.kysely);
      assert.equal(
        Number((await sql<{ n: number }>`select count(*) as n from t`.execute(plain.readKysely)).rows[0]?.n),
        await count(),
      );
      assert.equal(plain.readersStarted?.(), 0);
    } finally {
      await plain.close();
    }
  });
});
