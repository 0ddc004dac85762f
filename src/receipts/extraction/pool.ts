import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ExtractionResult, FailureCode } from './types.ts';
import type { WorkerJob, WorkerMessage } from './worker.ts';

// A small pool of warm extraction workers (starting one costs about a second: tsx compiles the
// extraction code inside it). Each runs one job at a time under a heap limit; a worker that
// times out or runs out of memory is terminated, its child processes SIGKILLed, and replaced.

// Compiled (dist/accounting.mjs, scripts/build.mjs), the worker is its own bundle beside this
// one. From the sources, Node 20 does not pass `--import tsx` on to worker threads: a bootstrap
// registers tsx's loader inside the worker, then imports the entry.
const compiledWorker = import.meta.url.endsWith('.mjs')
  ? new URL('./extraction-worker.mjs', import.meta.url).href
  : undefined;
const bootstrap = compiledWorker
  ? `import(${JSON.stringify(compiledWorker)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((api) => { api.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`;

const failed = (code: FailureCode, reason: string): ExtractionResult => ({ status: 'failed', code, reason });

interface Slot {
  worker: Worker;
  heapMb: number;
}

const size = Math.max(1, Math.min(2, availableParallelism()));
const idle: Slot[] = [];
let live = 0;
const waiting: ((slot: Slot) => void)[] = [];

function startSlot(heapMb: number): Slot {
  const worker = new Worker(bootstrap, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  live++;
  worker.once('exit', () => {
    live--;
  });
  return { worker, heapMb };
}

async function acquire(heapMb: number): Promise<Slot> {
  const index = idle.findIndex((s) => s.heapMb === heapMb);
  const found = index === -1 ? undefined : idle.splice(index, 1)[0];
  if (found) return found;
  if (live < size) return startSlot(heapMb);
  // A worker of another heap size is retired to make room.
  const other = idle.shift();
  if (other) {
    await other.worker.terminate();
    return startSlot(heapMb);
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(slot: Slot, healthy: boolean): void {
  if (!healthy) {
    void slot.worker.terminate();
    const next = waiting.shift();
    if (next) next(startSlot(slot.heapMb));
    return;
  }
  const next = waiting.shift();
  if (next) next(slot);
  else {
    slot.worker.unref();
    idle.push(slot);
  }
}

export async function runInWorker(job: WorkerJob, timeoutMs: number): Promise<ExtractionResult> {
  const slot = await acquire(job.limits.maxHeapMb);
  slot.worker.ref();
  return new Promise((resolve) => {
    const children = new Set<number>();
    let settled = false;
    const settle = (result: ExtractionResult, healthy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
      if (!healthy) for (const pid of children) killQuietly(pid);
      release(slot, healthy);
      resolve(result);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'result') settle(message.result, true);
      else if (message.type === 'spawned') children.add(message.pid);
      else children.delete(message.pid);
    };
    const onError = (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
        settle(failed('memory_limit', 'extraction ran out of memory'), false);
      else settle(failed('corrupt_file', `extraction failed: ${err.message}`), false);
    };
    const onExit = () => settle(failed('corrupt_file', 'extraction stopped without a result'), false);
    const timer = setTimeout(
      () => settle(failed('timeout', `extraction ran past ${timeoutMs} ms and was stopped`), false),
      timeoutMs,
    );
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.worker.on('exit', onExit);
    try {
      slot.worker.postMessage(job);
    } catch (err) {
      // Nothing reached the worker: it stays healthy.
      settle(failed('corrupt_file', `input cannot be passed to the worker: ${(err as Error).message}`), true);
    }
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
