import { parentPort } from 'node:worker_threads';
import { extractInProcess } from './extract-core.ts';
import { setChildTracker } from './tools.ts';
import type { ExtractionInput, ExtractionLimits, ExtractionResult } from './types.ts';

// Worker entry: takes one job at a time from the pool. Child pids go to the parent first, so a
// worker terminated on timeout or out of memory cannot leave a tesseract running.

export interface WorkerJob {
  input: ExtractionInput;
  limits: ExtractionLimits;
  deadline: number;
}

export type WorkerMessage =
  | { type: 'spawned' | 'exited'; pid: number }
  | { type: 'result'; result: ExtractionResult };

const port = parentPort;
if (port) {
  // pdf-lib reports recoverable parse problems on the console; they belong to no log here.
  console.log = () => {};
  console.warn = () => {};
  const post = (message: WorkerMessage) => port.postMessage(message);
  setChildTracker(
    (pid) => post({ type: 'spawned', pid }),
    (pid) => post({ type: 'exited', pid }),
  );
  port.on('message', async (job: WorkerJob) => {
    const input = { ...job.input, bytes: Buffer.from(job.input.bytes) };
    post({ type: 'result', result: await extractInProcess(input, job.limits, job.deadline) });
  });
}
