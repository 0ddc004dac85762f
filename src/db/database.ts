import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { CredentialWrites } from './credential-writes.ts';
import { prepareMarkedStatements } from './pg-prepared.ts';
import type { Database } from './schema.ts';
import { WalCheckpointer } from './sqlite-checkpointer.ts';
import { AccountingSqliteDialect, ReadPoolPlugin } from './sqlite-driver.ts';
import { SqliteReadPool } from './sqlite-read-pool.ts';
import { cachingSqliteDatabase } from './statement-cache.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseConfig {
  /** `postgres://...` selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir (tests give each run its own). */
  sqliteFile?: string;
  poolSize?: number;
  /**
   * SQLite: read-only connections on worker threads beside the writer (docs/decisions.md 266);
   * 0 runs every query on the writer. Default 2.
   */
  sqliteReaders?: number;
  /**
   * PostgreSQL ends a session left idle inside a transaction this long (rolling it back), so a
   * stalled process cannot hold row locks, and with them a taken-over idempotency key, for ever.
   */
  idleInTransactionTimeoutMs?: number;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Human-readable location for logs, without credentials. */
  location: string;
  /** PostgreSQL only: opens a dedicated session for LISTEN (src/unit/cross-process-wakeups.ts). */
  openListener?: () => pg.Client;
  /** PostgreSQL only: this process's own writes to credentials, seen as they are made. */
  credentialWrites?: CredentialWrites;
  /**
   * SQLite only: the first row of a small read run at once on the writer connection, or undefined
   * when the writer is inside a transaction (whose uncommitted writes must not be seen); the
   * caller then reads through Kysely. For one-row lookups by key on every request (the credential
   * stamp), where a round trip to a read-pool thread costs more than the read.
   */
  readCommittedRow?: (sql: string) => unknown;
  /**
   * The same database, for the request path's reads (read-only operations, authentication). On
   * SQLite its reads outside a transaction go to the read pool (decisions 266, 288), so a slow
   * list or search stalls neither writes nor other requests; every query through `kysely` runs on
   * the writer. On PostgreSQL it is `kysely`.
   */
  readKysely: Kysely<Database>;
  /** SQLite: read-pool threads started so far (tests check that job polls start none). */
  readersStarted?: () => number;
  /** SQLite: WAL checkpoints run off the event loop so far (decision 459). */
  checkpointsRun?: () => number;
  close(): Promise<void>;
}

/**
 * Only the configured database's driver is loaded (issue 16, a lean idle process: pg alone is
 * about 15 MB of resident memory a SQLite process never uses). Both are CommonJS packages, so a
 * synchronous require keeps openDatabase synchronous.
 */
const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;

function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  const loaded = require('pg') as typeof pg;
  // pg returns timestamptz as Date and int8 as string; the data layer wants ISO strings
  // everywhere (same as SQLite's text) so rows normalize the same way on both databases.
  loaded.types.setTypeParser(1184, (value) => new Date(value).toISOString()); // timestamptz
  loaded.types.setTypeParser(1114, (value) => new Date(`${value}Z`).toISOString()); // timestamp
  loaded.types.setTypeParser(1082, (value) => value); // date stays 'YYYY-MM-DD'
  pgModule = loaded;
  return loaded;
}

export const DEFAULT_SQLITE_READERS = 2;

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * Calls `wrote` when the connection changed rows since the last call: a job's poll that only read
 * on the writer wakes no checkpoint thread (an idle process starts none, decision 288).
 */
function wroteSince(sqlite: BetterSqlite3.Database, wrote: () => void): () => void {
  const changes = sqlite.prepare('select total_changes() as n').pluck();
  let seen = changes.get();
  return () => {
    const now = changes.get();
    if (now === seen) return;
    seen = now;
    wrote();
  };
}

export function openDatabase(config: DatabaseConfig): Db {
  if (isPostgresUrl(config.databaseUrl)) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      ...(config.idleInTransactionTimeoutMs === undefined
        ? {}
        : { idle_in_transaction_session_timeout: config.idleInTransactionTimeoutMs }),
    });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {});
    prepareMarkedStatements(pool);
    const url = new URL(config.databaseUrl);
    const credentialWrites = new CredentialWrites();
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [credentialWrites],
    });
    return {
      kysely,
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}`,
      openListener: () => new pg.Client({ connectionString: config.databaseUrl }),
      credentialWrites,
      readKysely: kysely,
      close: () => kysely.destroy(),
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.resolve(config.dataDir, config.sqliteFile ?? 'accounting.sqlite');
  const Sqlite = require('better-sqlite3') as typeof BetterSqlite3;
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const writer = cachingSqliteDatabase(sqlite);
  const readers = config.sqliteReaders ?? DEFAULT_SQLITE_READERS;
  const pool = readers > 0 ? new SqliteReadPool(file, readers) : undefined;
  // With the read pool (the service's shape) the WAL is copied back off the event loop (decision
  // 459); without it (ACCOUNTING_SQLITE_READERS=0, a debugging shape) SQLite's own checkpoint stays.
  const checkpointer = pool ? new WalCheckpointer(file) : undefined;
  if (checkpointer) sqlite.pragma('wal_autocheckpoint = 0');
  const kysely = new Kysely<Database>({
    dialect: new AccountingSqliteDialect({
      config: { database: writer },
      readers: pool,
      prepare: (sql) => writer.prepare(sql),
      ...(checkpointer ? { afterWriterUse: wroteSince(sqlite, () => checkpointer.afterWrite()) } : {}),
    }),
  });
  return {
    kysely,
    dialect: 'sqlite',
    location: file,
    readKysely: pool ? kysely.withPlugin(new ReadPoolPlugin()) : kysely,
    readersStarted: () => pool?.started ?? 0,
    checkpointsRun: () => checkpointer?.runs ?? 0,
    readCommittedRow: (sql) => (sqlite.inTransaction ? undefined : writer.prepare(sql).get()),
    // The checkpointer's connection goes first, so that the writer's close is the last one and
    // SQLite copies the whole log back and removes it.
    close: async () => {
      await checkpointer?.close();
      await kysely.destroy();
    },
  };
}
