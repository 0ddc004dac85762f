import type { Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type KyselyPlugin,
  type QueryResult as PluginQueryResult,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryCompiler,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely';
import type { SqliteReadPool } from './sqlite-read-pool.ts';

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

const SELECT = /^\s*(select|with)\b/i;

/** Queries built through a Kysely carrying `ReadPoolPlugin`: the only ones the read pool may run. */
const FOR_READERS = new WeakSet<QueryId>();

/**
 * Marks every query of the Kysely it is added to (`kysely.withPlugin(...)`, which shares the
 * driver) as one the read pool may answer (`Db.readKysely`). Only the request path asks for it:
 * read-only operations, whose lists and searches may be slow, and authentication. Everything else
 * (jobs, which poll with small indexed reads, start-up checks, CLI commands) reads on the writer,
 * so an idle process starts no reader thread (decision 288).
 */
export class ReadPoolPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    FOR_READERS.add(args.queryId);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<PluginQueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * One connection as Kysely sees it: reads marked by `ReadPoolPlugin` go to the read pool until the
 * connection does anything else (a transaction, a write, a pragma, a raw BEGIN), from which moment it holds the writer until
 * released. So a unit of work, and anything inside a transaction, reads its own uncommitted
 * writes on the writer; a read outside any transaction reads the last commit, which includes every
 * write this process has committed before it (WAL readers see committed data at once).
 */
class RoutedConnection implements DatabaseConnection {
  readonly #writer: SqliteDriver;
  readonly #readers: SqliteReadPool;
  readonly #isRead: (sql: string) => boolean;
  readonly #afterWriterUse: () => void;
  #held: DatabaseConnection | undefined;

  constructor(routes: Routes) {
    this.#writer = routes.writer;
    this.#readers = routes.readers;
    this.#isRead = routes.isRead;
    this.#afterWriterUse = routes.afterWriterUse;
  }

  async writer(): Promise<DatabaseConnection> {
    this.#held ??= await this.#writer.acquireConnection();
    return this.#held;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#held === undefined && FOR_READERS.has(query.queryId) && this.#isRead(query.sql)) {
      try {
        return { rows: (await this.#readers.query(query.sql, query.parameters)) as R[] };
      } catch {
        // A reader that failed (it could not open the file, its thread died, SQLITE_BUSY) must not
        // fail a read the writer can answer: the writer is where every read ran before the pool.
        // A faulty query fails there again with the writer's own error.
      }
    }
    return (await this.writer()).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.writer()).streamQuery<R>(query, chunkSize);
  }

  async release(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    if (!held) return;
    await this.#writer.releaseConnection();
    this.#afterWriterUse();
  }
}

interface Routes {
  writer: SqliteDriver;
  readers: SqliteReadPool;
  isRead: (sql: string) => boolean;
  /** Told each time a connection lets the writer go (it may have written: decision 459). */
  afterWriterUse: () => void;
}

/** The writer (one connection, Kysely's mutex) plus the read pool (docs/decisions.md 266). */
class RoutingSqliteDriver implements Driver {
  readonly #routes: Routes;
  readonly #writer: SqliteDriver;
  readonly #readers: SqliteReadPool;

  constructor(routes: Routes) {
    this.#routes = routes;
    this.#writer = routes.writer;
    this.#readers = routes.readers;
  }

  init(): Promise<void> {
    return this.#writer.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.#routes);
  }
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await this.#writer.beginTransaction(await held(connection));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#writer.commitTransaction(await held(connection));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#writer.rollbackTransaction(await held(connection));
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#writer.savepoint(await held(connection), name, compile);
  }
  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.#writer.rollbackToSavepoint(await held(connection), name, compile);
  }
  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.#writer.releaseSavepoint(await held(connection), name, compile);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof RoutedConnection) await connection.release();
  }
  async destroy(): Promise<void> {
    await this.#readers.close();
    await this.#writer.destroy();
  }
}

function held(connection: DatabaseConnection): Promise<DatabaseConnection> {
  if (!(connection instanceof RoutedConnection)) throw new Error('not a connection of this driver');
  return connection.writer();
}

export interface SqliteDriverOptions {
  config: SqliteDialectConfig;
  /** Absent: every query on the writer, as Kysely's own driver does. */
  readers?: SqliteReadPool | undefined;
  /** The writer's prepared statement for `sql` (cached), to ask SQLite whether it only reads. */
  prepare?: (sql: string) => Statement;
  /** Told each time a connection lets the writer go (the WAL checkpointer, decision 459). */
  afterWriterUse?: () => void;
}

export class AccountingSqliteDialect extends SqliteDialect {
  readonly #options: SqliteDriverOptions;
  constructor(options: SqliteDriverOptions) {
    super(options.config);
    this.#options = options;
  }
  override createDriver(): Driver {
    const writer = new ImmediateSqliteDriver(this.#options.config);
    const { readers, prepare, afterWriterUse } = this.#options;
    if (!readers || !prepare) return writer;
    // SQLite itself says whether a statement only reads; the SELECT/WITH prefix keeps pragmas
    // (which answer about a connection's own settings) on the writer.
    const isRead = (sql: string) => {
      if (!SELECT.test(sql)) return false;
      const statement = prepare(sql);
      return statement.reader && statement.readonly;
    };
    return new RoutingSqliteDriver({ writer, readers, isRead, afterWriterUse: afterWriterUse ?? (() => {}) });
  }
}
