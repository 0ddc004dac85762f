// Statement import benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/statement-import.ts <sqlite|postgres> [--lines 100000]
//
// The real service on a fresh database: a 100,000-line CSV and a 100,000-entry CAMT.053 are sent
// through transactions.imports.create (HTTP, base64), then the import job runs in a separate worker
// process (bench/statement-import-worker.ts: parse, dedupe, insert in batches with entries and
// allocations). Prints lines/s of the job (claim to success) and the worker's idle and peak RSS;
// then imports the same CSV again (every line a duplicate) to time the dedupe alone. While each job
// runs, another member's read (accounts.list) and write (accounts.update) go to the server in turn;
// their p50/p99 latency is printed (otherP50Ms, otherP99Ms) with --probe. --only csv|camt runs one file. Run it with
// --lines 10000 and 100000: a bounded job peaks at the same memory whatever the line count.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../src/admin/organizations.ts';
import { loadConfig } from '../src/config.ts';
import { ALL_SCOPES } from '../src/contract/access.ts';
import type { DialectName } from '../src/db/database.ts';
import { buildServer } from '../src/server.ts';
import { createServices } from '../src/services.ts';
import { generatedCamt, generatedCsv } from '../test/books/fixtures.ts';
import { createTestDatabase } from '../test/support/databases.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lines: { type: 'string', default: '100000' },
    // Which runs, comma-separated: csv (and its re-import), camt.
    only: { type: 'string', default: 'csv,camt' },
    // Another member's requests while each job runs (they take CPU from the job on a small machine).
    probe: { type: 'boolean', default: false },
    // Dates ascending as banks print them, instead of cycling through the year line by line.
    chronological: { type: 'boolean', default: false },
  },
});
const dialect = (positionals[0] ?? 'sqlite') as DialectName;
const lines = Number(values.lines);

const database = await createTestDatabase(dialect);
const config = loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_RATE_LIMIT: '100000/1m' });
const services = await createServices(config, { db: database.db, logger: pino({ level: 'silent' }) });
const server = await buildServer(services);
const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
const { kysely } = services.db;
const organization = await createOrganization(kysely, services.clock, { name: 'Bench' });
const member = await addMember(kysely, services.clock, {
  organizationId: organization.id,
  email: 'bench@example.com',
  role: 'admin',
});
const key = await createApiKey(kysely, services.clock, {
  organizationId: organization.id,
  memberId: member.id,
  scopes: ALL_SCOPES,
});

async function post(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api/v1/accounting/${operation}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.token}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-${operation}-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  if (res.status !== 200 || !json.data)
    throw new Error(`${operation}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function run(name: string, fileName: string, bytes: Buffer, accountId: string) {
  await post('transactions.imports.create', {
    accountId,
    fileName,
    mediaType: 'application/octet-stream',
    contentBase64: bytes.toString('base64'),
  });
  // The job runs in a worker process of its own (as `accounting worker` would), so its memory is
  // measured apart from this process, which holds the server and the generated files.
  // WORKER_HEAP (MiB) caps the worker's old space: a job that completes under a small cap holds
  // only a bounded amount of live data, whatever the RSS the garbage collector lets grow.
  const heap = [
    ...(process.env.WORKER_HEAP ? [`--max-old-space-size=${process.env.WORKER_HEAP}`] : []),
    // WORKER_PROFILE=dir writes a CPU profile of each job run into dir.
    ...(process.env.WORKER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WORKER_PROFILE}`] : []),
  ];
  const child = spawn(process.execPath, [...heap, '--import', 'tsx', 'bench/statement-import-worker.ts'], {
    env: { ...process.env, ...database.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // Meanwhile another member's requests go to the server one after another: a read
  // (accounts.list) and a write (accounts.update of another account); their latencies while the
  // job runs are the "other requests" of issue 29 part 1.
  const latencies: number[] = [];
  let running = values.probe;
  const probe = (async () => {
    if (!running) return;
    let revision = Number((await post('accounts.get', { id: probeAccount })).revision);
    while (running) {
      const started = performance.now();
      await post('accounts.list', { limit: 10 });
      latencies.push(performance.now() - started);
      const writeStarted = performance.now();
      const updated = await post('accounts.update', {
        id: probeAccount,
        expectedRevision: revision,
        name: `Other ${revision}`,
      });
      revision = Number(updated.revision);
      latencies.push(performance.now() - writeStarted);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const status = await exited;
  running = false;
  await probe;
  if (status !== 0) throw new Error(`worker failed: ${stderr}`);
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
  const worker = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
    seconds: number;
    cpuSeconds: number;
    idleRssMiB: number;
    startupPeakMiB: number;
    peakRssMiB: number;
  };
  const seconds = worker.seconds;
  const job = await kysely
    .selectFrom('books_jobs')
    .select(['state', 'progress', 'error_message'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const counts = typeof job.progress === 'string' ? JSON.parse(job.progress) : job.progress;
  console.log(
    JSON.stringify({
      dialect,
      name,
      fileMiB: Number((bytes.length / 1048576).toFixed(1)),
      state: job.state,
      counts,
      seconds: Number(seconds.toFixed(1)),
      linesPerSecond: Math.round(lines / seconds),
      workerCpuSeconds: Number(worker.cpuSeconds.toFixed(1)),
      workerIdleRssMiB: worker.idleRssMiB,
      workerStartupPeakMiB: worker.startupPeakMiB,
      workerPeakRssMiB: worker.peakRssMiB,
      otherRequests: latencies.length,
      otherP50Ms: percentile(0.5),
      otherP99Ms: percentile(0.99),
      otherMaxMs: Math.round(latencies.at(-1) ?? 0),
    }),
  );
}

let probeAccount = '';
try {
  probeAccount = String(
    (await post('accounts.create', { name: 'Other', kind: 'checking', currency: 'EUR' })).id,
  );
  const csvAccount = String(
    (await post('accounts.create', { name: 'CSV', kind: 'checking', currency: 'EUR' })).id,
  );
  const only = new Set(values.only.split(','));
  if (only.has('csv')) {
    const csvBytes = generatedCsv(lines, { chronological: values.chronological });
    await run('csv', 'bench.csv', csvBytes, csvAccount);
    await run('csv again (all duplicates)', 'bench.csv', csvBytes, csvAccount);
  }
  if (only.has('camt')) {
    const camtAccount = String(
      (await post('accounts.create', { name: 'CAMT', kind: 'checking', currency: 'EUR' })).id,
    );
    await run(
      'camt053',
      'bench.xml',
      generatedCamt(lines, { chronological: values.chronological }),
      camtAccount,
    );
  }
} finally {
  await server.close();
  await database.drop();
}
