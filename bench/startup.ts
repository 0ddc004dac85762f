// Start-up benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/startup.ts [--runs 5]
//
// Starts `./bin/accounting serve` on an existing SQLite database (a warm start: migrated, first
// run done) with the compiled runtime and with ACCOUNTING_RUNTIME=tsx, several times each, and
// prints the time from spawn to "Listening on" and the resident memory 3 s later (idle).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const BIN = path.resolve('bin/accounting');
const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-startup-'));

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

async function once(runtime: 'compiled' | 'tsx'): Promise<{ startMs: number; idleRssMiB: number }> {
  const started = performance.now();
  const child = spawn(BIN, ['serve'], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ACCOUNTING_DATA_DIR: dataDir,
      ...(runtime === 'tsx' ? { ACCOUNTING_RUNTIME: 'tsx' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const startMs = await new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Listening on')) resolve(performance.now() - started);
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  // bin/accounting execs node, so the child's pid is the server's.
  const idleRssMiB = rssMiB(child.pid ?? 0);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { startMs: Math.round(startMs), idleRssMiB };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
try {
  await once('compiled'); // first run: builds dist/ if needed and initializes the database
  for (const runtime of ['compiled', 'tsx'] as const) {
    const runs = [];
    for (let i = 0; i < Number(values.runs); i++) runs.push(await once(runtime));
    console.log(
      JSON.stringify({
        runtime,
        startMs: median(runs.map((r) => r.startMs)),
        idleRssMiB: median(runs.map((r) => r.idleRssMiB)),
        runs,
      }),
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
