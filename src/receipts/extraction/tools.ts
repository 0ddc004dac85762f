import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { ExtractionFailure } from './types.ts';

// Child processes (pdftotext, pdftoppm, tesseract) with a wall-clock timeout and an output cap,
// both enforced by SIGKILL. They run in the extraction sandbox child's process group, so a
// sandbox child killed on its own timeout takes them with it (src/lib/sandbox).

export interface ToolRun {
  timeoutMs: number;
  maxOutputBytes: number;
}

export function runTool(command: string, args: string[], run: ToolRun): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // One thread per OCR run: the machine is shared and the worker pool is the parallelism.
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OMP_THREAD_LIMIT: '1', LC_ALL: 'C.UTF-8' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: ExtractionFailure | undefined;
    const timer = setTimeout(() => {
      failure = new ExtractionFailure('timeout', `${path.basename(command)} ran past ${run.timeoutMs} ms`);
      child.kill('SIGKILL');
    }, run.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > run.maxOutputBytes) {
        failure ??= new ExtractionFailure('too_large', `${path.basename(command)} output exceeds its cap`);
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.resume();
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code !== 0)
        reject(new ExtractionFailure('corrupt_file', `${path.basename(command)} exited with ${code}`));
      else resolve(Buffer.concat(chunks));
    });
  });
}

const found = new Map<string, { present: boolean; at: number }>();
/** A program installed while the service runs is found within a minute (receipts waiting for it are read again). */
const LOOKUP_MAX_AGE_MS = 60_000;

/** Looks every program up again at its next use (after an install; tests that change PATH). */
export function forgetCommandLookups(): void {
  found.clear();
}

/** Whether an executable is on PATH (cached briefly: a missing tesseract turns OCR into a review reason). */
export function hasCommand(name: string): boolean {
  const cached = found.get(name);
  if (cached !== undefined && Date.now() - cached.at < LOOKUP_MAX_AGE_MS) return cached.present;
  const present = (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  found.set(name, { present, at: Date.now() });
  return present;
}
