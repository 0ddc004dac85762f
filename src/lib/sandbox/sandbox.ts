import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { encodeFrame, FrameReader } from './frames.ts';
import { type FromChild, SandboxFailure, SandboxTaskError, type ToChild } from './protocol.ts';

// Runs a parser over untrusted bytes in a child process whose whole memory the operating system
// bounds (`prlimit --data`: every private writable mapping, V8 heap, Buffers, zlib and native
// allocations alike), with a wall-clock limit per answer (SIGKILL) and a cap on each answer's
// size. A failure is a SandboxFailure with a stable code; the service's own memory and event
// loop never see the parser's work, only its (capped) answers.
//
// Children are warm and reused (starting one costs ~0.1 s compiled, ~1 s from the sources under
// tsx); each runs one task at a time. One that failed is killed with its whole process group
// (tools it started included) and replaced on the next task. Idle children are unreferenced and
// exit after IDLE_MS, so an idle service keeps none.

export interface SandboxLimits {
  /** OS limit on the child's data segment (prlimit --data), in MiB. */
  memoryMb: number;
  /** V8 old-space limit of the child, in MiB (below memoryMb: the heap fails first, cleanly). */
  heapMb: number;
  /** Longest wait for one answer (a one-shot task's whole run; one batch of a stream). */
  timeoutMs: number;
  /** Largest answer, in serialized bytes. */
  maxOutputBytes: number;
}

/** Where a child's entry file is: the compiled bundle's file name, and the TypeScript source. */
export interface SandboxEntry {
  /** e.g. `statement-sandbox.mjs`, beside the compiled chunk that runs this (scripts/build.mjs). */
  compiled: string;
  /** The entry's source file (run under tsx when the service runs from its sources). */
  source: URL;
  /** `import.meta.url` of the module declaring the entry (tells compiled from sources). */
  from: string;
}

const IDLE_MS = 30_000;
const STDERR_KEPT = 4096;
const MEMORY_SIGNALS = new Set(['SIGABRT', 'SIGSEGV', 'SIGBUS', 'SIGTRAP', 'SIGILL', 'SIGKILL']);
const MEMORY_TEXT = /heap out of memory|Allocation failed|out of memory|Cannot allocate|bad_alloc|OOM/i;

let prlimitPath: string | null | undefined;
/** prlimit (util-linux) on PATH, looked up once. */
export function findPrlimit(): string | null {
  if (prlimitPath !== undefined) return prlimitPath;
  prlimitPath = null;
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/bin']) {
    const candidate = path.join(dir || '.', 'prlimit');
    try {
      accessSync(candidate, constants.X_OK);
      prlimitPath = candidate;
      break;
    } catch {
      // not here
    }
  }
  if (!prlimitPath) {
    process.emitWarning(
      'prlimit (util-linux) not found: sandboxed parsers are bounded by their V8 heap only (--max-old-space-size), not by an OS memory limit',
      { code: 'SANDBOX_NO_PRLIMIT' },
    );
  }
  return prlimitPath;
}

interface Child {
  proc: ChildProcess;
  key: string;
  reader: FrameReader;
  stderr: string;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  waiting: ((message: FromChild | SandboxFailure) => void) | undefined;
  /** Why we killed it (timeout, output): wins over the exit's own reading. */
  killedFor: SandboxFailure | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

export class Sandbox {
  private readonly idle: Child[] = [];
  private live = 0;
  private readonly queue: (() => void)[] = [];
  /** Largest peak RSS any child of this sandbox reported, in KiB (benchmarks, logs). */
  peakRssKb = 0;

  constructor(
    private readonly entry: SandboxEntry,
    private readonly size: number,
  ) {}

  /** Runs a one-shot task; throws SandboxFailure or SandboxTaskError. */
  async run<T>(task: string, input: unknown, limits: SandboxLimits): Promise<T> {
    const values: T[] = [];
    for await (const value of this.stream<T>(task, input, limits)) values.push(value);
    if (values.length === 0)
      throw new SandboxFailure('parse_crashed', `sandbox task ${task} answered nothing`);
    return values[0] as T;
  }

  /**
   * Runs a streaming task: each value is pulled from the child when the consumer asks for it.
   * Breaking out of the loop early kills the child (it is mid-task).
   */
  async *stream<T>(task: string, input: unknown, limits: SandboxLimits): AsyncGenerator<T> {
    const child = await this.acquire(limits);
    let healthy = false;
    try {
      this.send(child, { t: 'start', task, input, env: { PATH: process.env.PATH ?? '' } });
      for (;;) {
        const answer = await this.ask(child, { t: 'next' }, limits);
        if (answer.t === 'item') {
          yield answer.value as T;
          continue;
        }
        this.peakRssKb = Math.max(this.peakRssKb, answer.peakRssKb);
        if (answer.t === 'end') {
          healthy = true;
          return;
        }
        if (answer.memory) {
          throw new SandboxFailure(
            'parse_memory_limit',
            `the file needs more than ${limits.memoryMb} MiB to read`,
          );
        }
        healthy = true;
        throw new SandboxTaskError(answer.name, answer.code, answer.message);
      }
    } finally {
      this.release(child, healthy);
    }
  }

  private send(child: Child, message: ToChild): void {
    for (const part of encodeFrame(message)) (child.proc.stdin as Writable).write(part);
  }

  private ask(child: Child, message: ToChild, limits: SandboxLimits): Promise<FromChild> {
    return new Promise((resolve, reject) => {
      if (child.exit) return reject(this.exitFailure(child, limits));
      child.reader.setBudget(limits.maxOutputBytes);
      const timer = setTimeout(() => {
        this.kill(
          child,
          new SandboxFailure('parse_timeout', `reading the file took longer than ${limits.timeoutMs} ms`),
        );
      }, limits.timeoutMs);
      child.waiting = (answer) => {
        clearTimeout(timer);
        child.waiting = undefined;
        if (answer instanceof SandboxFailure) reject(answer);
        else resolve(answer);
      };
      this.send(child, message);
    });
  }

  private exitFailure(child: Child, limits: SandboxLimits): SandboxFailure {
    if (child.killedFor) return child.killedFor;
    const { code, signal } = child.exit ?? { code: null, signal: null };
    if (
      (signal && MEMORY_SIGNALS.has(signal)) ||
      code === 134 ||
      code === 139 ||
      MEMORY_TEXT.test(child.stderr)
    ) {
      return new SandboxFailure(
        'parse_memory_limit',
        `the file needs more than ${limits.memoryMb} MiB to read`,
      );
    }
    return new SandboxFailure(
      'parse_crashed',
      `the reader stopped (${signal ?? `exit ${code}`})${child.stderr ? `: ${child.stderr.slice(-300)}` : ''}`,
    );
  }

  private kill(child: Child, reason: SandboxFailure): void {
    child.killedFor ??= reason;
    const pid = child.proc.pid;
    if (pid === undefined || child.exit) return;
    try {
      process.kill(-pid, 'SIGKILL'); // its process group: tools it started die with it
    } catch {
      child.proc.kill('SIGKILL');
    }
  }

  private async acquire(limits: SandboxLimits): Promise<Child> {
    const key = `${limits.memoryMb}/${limits.heapMb}`;
    for (;;) {
      const index = this.idle.findIndex((c) => c.key === key && !c.exit);
      const found = index === -1 ? undefined : this.idle.splice(index, 1)[0];
      if (found) {
        clearTimeout(found.idleTimer);
        this.ref(found, true);
        return found;
      }
      if (this.live < this.size) return this.start(limits, key);
      const other = this.idle.shift();
      if (other) {
        clearTimeout(other.idleTimer);
        this.kill(other, new SandboxFailure('parse_crashed', 'retired'));
        return this.start(limits, key);
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
  }

  private release(child: Child, healthy: boolean): void {
    if (!healthy || child.exit || child.waiting) {
      this.kill(child, child.killedFor ?? new SandboxFailure('parse_crashed', 'abandoned mid-task'));
    } else {
      this.ref(child, false);
      child.idleTimer = setTimeout(
        () => this.kill(child, new SandboxFailure('parse_crashed', 'idle')),
        IDLE_MS,
      );
      child.idleTimer.unref();
      this.idle.push(child);
    }
    this.queue.shift()?.();
  }

  private ref(child: Child, on: boolean): void {
    const handles = [child.proc, child.proc.stdin, child.proc.stderr, child.proc.stdio[3]] as (
      | { ref?: () => void; unref?: () => void }
      | null
      | undefined
    )[];
    for (const handle of handles) (on ? handle?.ref : handle?.unref)?.call(handle);
  }

  private start(limits: SandboxLimits, key: string): Child {
    const compiled = this.entry.from.endsWith('.mjs');
    const script = compiled
      ? fileURLToPath(new URL(`./${this.entry.compiled}`, this.entry.from))
      : fileURLToPath(this.entry.source);
    const nodeArgs = [
      `--max-old-space-size=${limits.heapMb}`,
      '--max-semi-space-size=16',
      '--stack-size=2048',
      ...(compiled ? [] : ['--import', import.meta.resolve('tsx/esm')]),
      script,
    ];
    const prlimit = findPrlimit();
    const [command, args] = prlimit
      ? [prlimit, [`--data=${limits.memoryMb * 1024 * 1024}`, '--', process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
    const proc = spawn(command, args, {
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      // Its own process group, so a kill reaches the tools it spawned too.
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', NODE_OPTIONS: '' },
    });
    const child: Child = {
      proc,
      key,
      reader: new FrameReader(limits.maxOutputBytes),
      stderr: '',
      exit: undefined,
      waiting: undefined,
      killedFor: undefined,
      idleTimer: undefined,
    };
    this.live++;
    (proc.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      for (const event of child.reader.push(chunk)) {
        if (event.kind === 'too_large') {
          this.kill(
            child,
            new SandboxFailure(
              'parse_output_too_large',
              `the reader's answer exceeds ${limits.maxOutputBytes} bytes`,
            ),
          );
        } else child.waiting?.(event.message as FromChild);
      }
    });
    (proc.stdin as Writable).on('error', () => {}); // a dead child's pipe; its exit says why
    proc.stderr?.on('data', (chunk: Buffer) => {
      child.stderr = (child.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    const gone = (code: number | null, signal: NodeJS.Signals | null) => {
      if (child.exit) return;
      child.exit = { code, signal };
      clearTimeout(child.idleTimer);
      const at = this.idle.indexOf(child);
      if (at !== -1) this.idle.splice(at, 1);
      this.live--;
      child.waiting?.(this.exitFailure(child, limits));
      this.queue.shift()?.();
    };
    proc.on('error', (error) => {
      child.killedFor ??= new SandboxFailure('parse_crashed', `the reader could not start: ${error.message}`);
      gone(null, null);
    });
    proc.once('exit', gone);
    return child;
  }
}
