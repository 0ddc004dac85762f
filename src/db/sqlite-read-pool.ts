import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Read-only SQLite connections on worker threads, beside the one writer (docs/decisions.md 266).
 * better-sqlite3 runs a query synchronously, so a slow read on the main thread stops every other
 * request; in WAL mode other connections read the last committed state while the writer works, so
 * a read here neither waits for a write transaction nor holds up the event loop.
 *
 * Workers start on demand (one more whenever all are busy, up to `size`), so an idle process pays
 * for none. Each keeps its own prepared statements (the same LRU as the writer's statement cache).
 */

// Plain CommonJS evaluated as the worker's body: no file to locate, the same under tsx and in the
// compiled bundle. better-sqlite3 is resolved by the main thread and passed in.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Statements by the id the main thread gave them: after its first run a query crosses the thread
// boundary as a number, not its SQL text. Both sides keep the same LRU of the same size, touched
// in the same order (messages arrive in order), so they evict the same id at the same moment.
const statements = new Map();
function statementFor(id, sql) {
  let statement = statements.get(id);
  if (statement) { statements.delete(id); statements.set(id, statement); return statement; }
  if (sql === undefined) throw Object.assign(new Error('unknown statement id'), { code: 'READER_UNKNOWN_STATEMENT' });
  statement = db.prepare(sql);
  statements.set(id, statement);
  if (statements.size > workerData.capacity) statements.delete(statements.keys().next().value);
  return statement;
}
const asBuffer = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v);
parentPort.on('message', ({ id, statement, sql, parameters }) => {
  try {
    parentPort.postMessage({ id, rows: statementFor(statement, sql).all(parameters.map(asBuffer)) });
  } catch (error) {
    // The main thread forgets a statement that failed; so does this side, keeping the mirror.
    statements.delete(statement);
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

interface Reply {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string };
}

interface Reader {
  worker: Worker;
  job: Job | undefined;
  /** The statement ids this reader holds, by SQL text: the mirror of the worker's LRU. */
  known: Map<string, number>;
}

/** Prepared statements each reader keeps (the same LRU size as the writer's statement cache). */
const READER_STATEMENTS = 256;

/** What crosses the thread boundary loses its Buffer class: blobs come back as Uint8Array. */
function restoreBuffers(rows: unknown[]): unknown[] {
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue;
    const record = row as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
        record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
    }
  }
  return rows;
}

export class SqliteReadPool {
  readonly #file: string;
  readonly #size: number;
  readonly #driver = createRequire(import.meta.url).resolve('better-sqlite3');
  readonly #readers: Reader[] = [];
  readonly #queue: Job[] = [];
  #nextId = 0;
  #closed = false;

  constructor(file: string, size: number) {
    this.#file = file;
    this.#size = size;
  }

  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error('the SQLite read pool is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ sql, parameters, resolve, reject });
      this.#dispatch();
    });
  }

  /** Reader threads running now (they start on demand; an idle process should hold none). */
  get started(): number {
    return this.#readers.length;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const closed = new Error('the SQLite read pool is closed');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    const readers = this.#readers.splice(0);
    for (const reader of readers) reader.job?.reject(closed);
    await Promise.all(readers.map((reader) => reader.worker.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const reader = this.#readers.find((r) => r.job === undefined) ?? this.#spawn();
      if (!reader) return; // all busy: the next reply dispatches again
      const job = this.#queue.shift();
      if (!job) return;
      reader.job = job;
      // Busy workers keep the process alive (a CLI awaiting a read); idle ones do not.
      reader.worker.ref();
      this.#nextId += 1;
      const statement = reader.known.get(job.sql);
      if (statement === undefined) {
        const fresh = this.#nextId;
        reader.known.set(job.sql, fresh);
        if (reader.known.size > READER_STATEMENTS)
          reader.known.delete(reader.known.keys().next().value as string);
        reader.worker.postMessage({
          id: this.#nextId,
          statement: fresh,
          sql: job.sql,
          parameters: job.parameters,
        });
      } else {
        reader.known.delete(job.sql);
        reader.known.set(job.sql, statement);
        reader.worker.postMessage({ id: this.#nextId, statement, parameters: job.parameters });
      }
    }
  }

  #spawn(): Reader | undefined {
    if (this.#readers.length >= this.#size) return undefined;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.#file, driver: this.#driver, capacity: READER_STATEMENTS },
      // Not the parent's --import tsx: the worker is plain JavaScript and starts lighter without it.
      execArgv: [],
    });
    const reader: Reader = { worker, job: undefined, known: new Map() };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const job = reader.job;
      reader.job = undefined;
      worker.unref();
      if (job) {
        // Both sides forget a statement that failed (the worker did on its side), so the mirror
        // holds; the next run sends its SQL again.
        if (reply.error) reader.known.delete(job.sql);
        if (reply.error)
          job.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
        else job.resolve(restoreBuffers(reply.rows ?? []));
      }
      this.#dispatch();
    });
    // A worker that dies (it should not) fails its query and is replaced by the next dispatch.
    const lost = (error: Error) => {
      if (this.#closed) return; // terminate() at close ends every worker with code 1
      const index = this.#readers.indexOf(reader);
      if (index >= 0) this.#readers.splice(index, 1);
      reader.job?.reject(error);
      reader.job = undefined;
      if (!this.#closed) this.#dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`SQLite read worker exited (${code})`)));
    this.#readers.push(reader);
    return reader;
  }
}
