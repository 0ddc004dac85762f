// Start-up benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/startup.ts [--runs 5] [--settle 60] [--runtime compiled|tsx|both]
//
// Starts `./bin/accounting serve` on an existing SQLite database (a warm start: migrated, first
// run done) with the compiled runtime and with ACCOUNTING_RUNTIME=tsx, several times each, and
// prints the time from spawn to "Listening on" and the resident memory 3 s later (idle). With
// --settle N it also samples the memory N s after the start: V8 gives back the start-up garbage
// only after some idle time (about 45 s here), so the 3 s figure is the worst an idle process shows.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    settle: { type: 'string', default: '0' },
    runtime: { type: 'string', default: 'both' },
  },
});
const settleMs = Number(values.settle) * 1000;
const BIN = path.resolve('bin/accounting');
const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-startup-'));

/** CPU time (user + system) the process has used so far: steadier than wall time on a busy machine. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

async function once(
  runtime: 'compiled' | 'tsx',
): Promise<{ startMs: number; startCpuMs: number; idleRssMiB: number; settledRssMiB?: number }> {
  const started = performance.now();
  const child = spawn(BIN, ['serve'], {
    env: {
      PATH: process.env.PATH,
      // ACCOUNTING_* settings of the benchmark's own environment pass through (to compare them).
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('ACCOUNTING_'))),
      PORT: '0',
      LOG_LEVEL: 'warn',
      ACCOUNTING_DATA_DIR: dataDir,
      ...(runtime === 'tsx' ? { ACCOUNTING_RUNTIME: 'tsx' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let startCpuMs = 0;
  const startMs = await new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Listening on') || startCpuMs > 0) return;
      startCpuMs = cpuMs(child.pid ?? 0);
      resolve(performance.now() - started);
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  // bin/accounting execs node, so the child's pid is the server's.
  const idleRssMiB = rssMiB(child.pid ?? 0);
  let settledRssMiB: number | undefined;
  if (settleMs > 3000) {
    await new Promise((resolve) => setTimeout(resolve, settleMs - 3000));
    settledRssMiB = rssMiB(child.pid ?? 0);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return {
    startMs: Math.round(startMs),
    startCpuMs,
    idleRssMiB,
    ...(settledRssMiB === undefined ? {} : { settledRssMiB }),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
try {
  await once('compiled'); // first run: builds dist/ if needed and initializes the database
  const runtimes = (['compiled', 'tsx'] as const).filter(
    (r) => values.runtime === 'both' || values.runtime === r,
  );
  for (const runtime of runtimes) {
    const runs = [];
    for (let i = 0; i < Number(values.runs); i++) runs.push(await once(runtime));
    console.log(
      JSON.stringify({
        runtime,
        startMs: median(runs.map((r) => r.startMs)),
        startCpuMs: median(runs.map((r) => r.startCpuMs)),
        idleRssMiB: median(runs.map((r) => r.idleRssMiB)),
        ...(settleMs > 3000 ? { settledRssMiB: median(runs.map((r) => r.settledRssMiB ?? 0)) } : {}),
        runs,
      }),
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
