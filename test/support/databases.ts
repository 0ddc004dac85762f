import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, type DialectName, openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** Both databases by default; TEST_DIALECTS=sqlite (or postgres) narrows the run. */
export const DIALECTS: readonly DialectName[] = (process.env.TEST_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is DialectName => d === 'sqlite' || d === 'postgres');

/** The server CI provides; tests create (and drop) a database of their own on it. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

export interface TestDatabase {
  db: Db;
  /** What a second process (a CLI or worker child) needs to reach the same database. */
  env: { DATABASE_URL?: string; ACCOUNTING_DATA_DIR: string };
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database per test file: a temporary SQLite file, or a new PostgreSQL database
 * (so parallel test files and parallel developers never share rows).
 */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-test-'));
  if (dialect === 'sqlite') {
    // ACCOUNTING_SQLITE_READERS=0 runs a suite with every query on the writer (decision 266).
    const readers = process.env.ACCOUNTING_SQLITE_READERS;
    const db = openDatabase({ dataDir, ...(readers ? { sqliteReaders: Number(readers) } : {}) });
    await migrateToLatest(db);
    return {
      db,
      url: undefined,
      env: { ACCOUNTING_DATA_DIR: dataDir },
      async drop() {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `acct_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  // Test databases are thrown away: a commit need not wait for the disk (a crash loses at most the
  // last moments of a test, never consistency). Every connection, children included, inherits it.
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = openDatabase({ databaseUrl: url.toString(), dataDir, poolSize: 5 });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    env: { DATABASE_URL: url.toString(), ACCOUNTING_DATA_DIR: dataDir },
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
