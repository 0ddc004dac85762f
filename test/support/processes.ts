import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `./bin/accounting` of this checkout, run as a real child process. */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/accounting');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child: only what it needs, so the developer's own settings do not leak in. */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/** Runs a command to completion. */
export function runCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  baseUrl: string;
  /** Everything printed on stdout up to "Listening on". */
  banner: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `serve` on a free port (PORT=0) and waits until it listens. */
export function startServe(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['serve'], {
      env: childEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(stdout);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        baseUrl: match[1],
        banner: stdout,
        child,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
}
