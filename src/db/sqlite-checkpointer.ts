import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the SQLite write-ahead log into the database file on a worker thread (decision 459).
 * SQLite's own auto-checkpoint runs inside the COMMIT that crossed its threshold, on the writer
 * connection, which here is the event loop: after a 20 MiB upload it copied 20 MiB and synced the
 * file while every request waited (bench/hostile-files.ts). The writer runs with
 * `wal_autocheckpoint = 0`, and this thread's own connection runs a PASSIVE checkpoint soon after
 * writes: passive never waits for, nor blocks, the writer or the readers; frames a reader still
 * needs are copied by a later run.
 */

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('wal_autocheckpoint = 0');
parentPort.on('message', () => {
  let result;
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    result = { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    // SQLITE_BUSY or a failed sync: the next write asks again; the writer is never affected.
    result = { error: String(error && error.message) };
  }
  parentPort.postMessage(result);
});
`;

/** How long after a write the checkpoint runs: writes close together share one run. */
const DELAY_MS = 200;

export class WalCheckpointer {
  readonly #file: string;
  readonly #driver = createRequire(import.meta.url).resolve('better-sqlite3');
  #worker: Worker | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  /** A write came while a run was going: run once more after it. */
  #again = false;
  #closed = false;
  #runs = 0;

  constructor(file: string) {
    this.#file = file;
  }

  /** Checkpoint runs finished so far (tests watch it; an idle process runs none). */
  get runs(): number {
    return this.#runs;
  }

  /** Called after the writer was used: schedules a run unless one is pending. Cheap. */
  afterWrite(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.#run(), DELAY_MS);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #run(): void {
    this.#timer = undefined;
    if (this.#closed) return;
    this.#running = true;
    this.#again = false;
    this.#ensureWorker().postMessage('checkpoint');
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.#file, driver: this.#driver },
      execArgv: [],
    });
    worker.unref();
    worker.on('message', () => {
      this.#runs += 1;
      this.#running = false;
      if (this.#again) this.afterWrite();
    });
    // A thread that dies (it should not) is replaced at the next run; SQLite checkpoints again
    // when the last connection closes, so nothing is lost either way.
    const lost = () => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#running = false;
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.#worker = worker;
    return worker;
  }
}
