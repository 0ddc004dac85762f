import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../src/db/database.ts';

/**
 * The writer commits without copying the WAL into the database file (SQLite's auto-checkpoint ran
 * on the event loop); a worker thread copies it soon after (decision 459).
 */
describe('SQLite WAL checkpoints off the event loop', () => {
  let dir: string;
  let db: Db;
  const file = () => path.join(dir, 'accounting.sqlite');
  const size = () => statSync(file()).size;
  const until = async (what: string, done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(done(), what);
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accounting-checkpoint-'));
    db = openDatabase({ dataDir: dir, sqliteReaders: 1 });
    await sql`create table t (id integer primary key, body blob)`.execute(db.kysely);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs no checkpoint while nothing is written, even when the writer reads', async () => {
    const runs = db.checkpointsRun?.() ?? -1;
    await sql`select count(*) from t`.execute(db.kysely);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(db.checkpointsRun?.(), runs);
  });

  it('commits 8 MiB without copying it into the file, then copies it off the event loop', async () => {
    const before = size();
    const runs = db.checkpointsRun?.() ?? -1;
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 8; i += 1)
        await sql`insert into t (body) values (${Buffer.alloc(1024 * 1024, i)})`.execute(trx);
    });
    // No timer or I/O callback ran since the commit (the driver is synchronous): had the commit
    // checkpointed, as SQLite's auto-checkpoint does past 1,000 pages, the file would hold it now.
    assert.ok(size() < before + 1024 * 1024, `the file grew by ${size() - before} bytes at commit`);
    await until('a checkpoint ran', () => (db.checkpointsRun?.() ?? 0) > runs);
    await until('the file holds the committed bytes', () => size() >= before + 8 * 1024 * 1024);
    const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db.readKysely);
    assert.equal(Number(rows.rows[0]?.n), 8);
  });

  it('leaves no log behind when the database closes', async () => {
    await sql`insert into t (body) values (${Buffer.from('last')})`.execute(db.kysely);
    const other = openDatabase({ dataDir: dir, sqliteFile: 'other.sqlite', sqliteReaders: 1 });
    await sql`create table u (id integer primary key)`.execute(other.kysely);
    await sql`insert into u (id) values (1)`.execute(other.kysely);
    await other.close();
    assert.throws(() => statSync(path.join(dir, 'other.sqlite-wal')), /ENOENT/);
  });
});
