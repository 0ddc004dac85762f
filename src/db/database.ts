import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import { CredentialWrites } from './credential-writes.ts';
import type { Database } from './schema.ts';
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
  close(): Promise<void>;
}

// pg returns timestamptz as Date and int8 as string; the data layer wants ISO strings
// everywhere (same as SQLite's text) so rows normalize the same way on both databases.
pg.types.setTypeParser(1184, (value) => new Date(value).toISOString()); // timestamptz
pg.types.setTypeParser(1114, (value) => new Date(`${value}Z`).toISOString()); // timestamp
pg.types.setTypeParser(1082, (value) => value); // date stays 'YYYY-MM-DD'

/**
 * Kysely's SQLite driver opens transactions with a deferred BEGIN; when a second process
 * (a `worker` beside `serve`) writes too, upgrading a read lock can fail at once with
 * SQLITE_BUSY. BEGIN IMMEDIATE takes the write lock up front so busy_timeout applies.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

export function openDatabase(config: DatabaseConfig): Db {
  if (isPostgresUrl(config.databaseUrl)) {
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
      close: () => kysely.destroy(),
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.resolve(config.dataDir, config.sqliteFile ?? 'accounting.sqlite');
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: cachingSqliteDatabase(sqlite) }),
  });
  return {
    kysely,
    dialect: 'sqlite',
    location: file,
    close: () => kysely.destroy(),
  };
}
