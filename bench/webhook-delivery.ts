// Webhook delivery benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/webhook-delivery.ts [sqlite|postgres] [--events 2000] [--endpoints 20]
//
// 1. Throughput: `events` events fanned out to `endpoints` endpoints on one local receiver that
//    answers 200 at once; one worker (this process, default settings) drains the queue. Also
//    reported: SQL statements per delivery (every statement the process sent, BEGIN and COMMIT
//    included; bench/support/statement-counter.ts) and the process's CPU time per delivery.
// 2. Latency: events committed at a steady rate while a delivery worker runs; time from each
//    event's commit to its first attempt reaching the receiver. Measured as:
//    - polled: the job loop in this process, never woken: what a separate `accounting worker`
//      sees when nothing tells it (idle poll 100 ms; SQLite's only way across processes);
//    - nudged: the job loop in this process, woken after each commit, as `serve` sees its own
//      commits (the after-commit wake-up of src/unit/wakeups.ts);
//    - notified (PostgreSQL only): a SEPARATE `bin/accounting worker` process, woken by the
//      NOTIFY this process sends after each commit (src/unit/cross-process-wakeups.ts).
//    `--modes polled,nudged,notified` picks some (default: all that the database supports);
//    `--modes none` measures throughput only.
// PostgreSQL uses TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) for a scratch database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import type { DialectName } from '../src/db/database.ts';
import { startJobs } from '../src/jobs/runner.ts';
import { webhookDeliveryJob } from '../src/jobs/webhook-jobs.ts';
import { buildServer } from '../src/server.ts';
import type { Services } from '../src/services.ts';
import { undici } from '../src/webhooks/undici.ts';
import { call } from '../test/support/http.ts';
import { startWebhookReceiver } from '../test/support/webhook-receiver.ts';
import { benchOrganization, startBenchService } from './support/bench-service.ts';
import { startCpuProfile } from './support/cpu-profile.ts';
import { installStatementCounter } from './support/statement-counter.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    events: { type: 'string', default: '2000' },
    endpoints: { type: 'string', default: '20' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'polled,nudged,notified' },
    // child: the throughput receiver runs in its own process (bench/support/answer-200.ts), so the
    // CPU per delivery is the worker's; inline: in this process, as measured before issue 16 part 3.
    receiver: { type: 'string', default: 'child' },
    // Writes a CPU profile of the throughput phase only (summary: bench/support/cpu-profile.ts).
    'cpu-prof': { type: 'string' },
    // The HTTP client (undici) loads with a process's first delivery (decision 269): about 0.1 s
    // of CPU once, 5-8 % of a 2,000-delivery run. By default it is loaded before the throughput
    // phase, as in a worker that has delivered before; --cold counts it (figures before 2026-11-25).
    cold: { type: 'boolean', default: false },
  },
});
const dialect: DialectName = positionals[0] === 'postgres' ? 'postgres' : 'sqlite';
const EVENTS = Number(values.events);
const ENDPOINTS = Number(values.endpoints);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
type Mode = 'polled' | 'nudged' | 'notified';
const MODES = values.modes
  .split(',')
  .map((mode) => mode.trim())
  .filter((mode): mode is Mode => mode === 'polled' || mode === 'nudged' || mode === 'notified')
  // Only PostgreSQL carries a wake-up to another process.
  .filter((mode) => mode !== 'notified' || dialect === 'postgres');
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/accounting');
const statements = installStatementCounter();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function recordEvent(services: Services, organizationId: string, n: number): Promise<string> {
  return services.db.kysely.transaction().execute(async (trx) => {
    const event = await services.events.record(
      trx,
      organizationId,
      { type: 'contractor.created', subject: { type: 'contractor', id: crypto.randomUUID() }, data: { n } },
      { requestId: null, now: services.clock.now() },
    );
    return event.id;
  });
}

async function pendingCount(services: Services, organizationId: string): Promise<number> {
  const row = await services.db.kysely
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `bin/accounting worker` on the same database, started and ready (its log says so). */
async function startWorkerProcess(
  env: Record<string, string | undefined>,
): Promise<{ stop(): Promise<void> }> {
  const child = spawn(BIN, ['worker'], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'info',
      SMTP_URL: '',
      ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The first start may build dist/ (decision 258).
  for (let i = 0; i < 1200 && !log.includes('worker started'); i++) {
    if (child.exitCode !== null) throw new Error(`worker exited: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!log.includes('worker started')) throw new Error(`worker did not start: ${log}`);
  // Its LISTEN session connects right after start; give it a moment before the first commit.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The throughput receiver in a child process (bench/support/answer-200.ts). */
async function startChildReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'support/answer-200.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    child.stdout?.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://localhost:${port}`,
    async close() {
      child.stdin?.end();
      await exited;
    },
  };
}

async function main(): Promise<void> {
  // The worker's settings may be varied from the environment (ACCOUNTING_WEBHOOK_CONCURRENCY...).
  const webhookEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key.startsWith('ACCOUNTING_WEBHOOK_')),
  );
  const config = loadConfig({
    ...webhookEnv,
    LOG_LEVEL: 'silent',
    ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true',
  });
  const bench = await startBenchService(dialect, config);
  const { database, services } = bench;
  const server = await buildServer(services);
  const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  const receiver = await startWebhookReceiver({ status: 200 });
  const throughputReceiver = values.receiver === 'inline' ? undefined : await startChildReceiver();
  try {
    const setup = async (name: string, endpoints: number, receiverUrl = receiver.url) => {
      const { organizationId, token } = await benchOrganization(services, name, [
        'accounting:read',
        'accounting:write',
        'accounting:admin',
      ]);
      for (let i = 0; i < endpoints; i++) {
        const res = await call(
          baseUrl,
          'webhooks.endpoints.create',
          { url: `${receiverUrl}/${name}/${i}`, events: ['contractor.*'] },
          { token },
        );
        if (res.status !== 200) throw new Error(`endpoint create: ${JSON.stringify(res.body)}`);
      }
      return organizationId;
    };

    // 1. Throughput.
    const throughputOrg = await setup('throughput', ENDPOINTS, throughputReceiver?.url);
    for (let i = 0; i < Math.ceil(EVENTS / ENDPOINTS); i++) await recordEvent(services, throughputOrg, i);
    const deliveries = await pendingCount(services, throughputOrg);
    if (!values.cold) undici();
    const stopProfile = values['cpu-prof'] === undefined ? undefined : await startCpuProfile();
    statements.reset();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    while ((await webhookDeliveryJob.run(services)) > 0);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (stopProfile && values['cpu-prof'] !== undefined) await stopProfile(values['cpu-prof']);
    const statementsPerDelivery = statements.count / deliveries;
    const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / deliveries;
    const left = await pendingCount(services, throughputOrg);
    if (left !== 0) throw new Error(`${left} deliveries left pending`);

    // 2. Latency, with the job loop of `accounting worker` (polled), of `serve` (nudged), or a
    // separate worker process woken by NOTIFY (notified).
    const latency = async (mode: Mode) => {
      const org = await setup(`latency-${mode}`, 1);
      const committed = new Map<string, number>();
      const worker = mode === 'notified' ? await startWorkerProcess(database.env) : undefined;
      const jobs = mode === 'notified' ? undefined : startJobs(services, [webhookDeliveryJob]);
      try {
        const gapMs = 1000 / RATE;
        const until = performance.now() + SECONDS * 1000;
        for (let n = 0; performance.now() < until; n++) {
          const id = await recordEvent(services, org, n);
          committed.set(id, Date.now());
          // What an operation's unit of work does after its commit (src/unit/with-unit.ts): wakes
          // this process's loops and, on PostgreSQL, NOTIFYs the others. Polled: nothing.
          if (mode !== 'polled') services.wakeups.notify('events');
          await new Promise((resolve) => setTimeout(resolve, gapMs));
        }
        while ((await pendingCount(services, org)) > 0) await new Promise((r) => setTimeout(r, 50));
      } finally {
        await jobs?.stop();
        await worker?.stop();
      }
      const latencies = receiver.requests
        .filter((r) => r.path === `/latency-${mode}/0` && r.headers['service-delivery-attempt'] === '1')
        .map((r) => r.at - (committed.get(String(r.headers['service-event-id'])) ?? Number.NaN))
        .filter((ms) => Number.isFinite(ms))
        .sort((a, b) => a - b);
      return {
        events: latencies.length,
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: latencies.at(-1),
      };
    };
    const latencies: Partial<Record<Mode, Awaited<ReturnType<typeof latency>>>> = {};
    for (const mode of MODES) latencies[mode] = await latency(mode);

    const result = {
      dialect,
      deliveries,
      endpoints: ENDPOINTS,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(deliveries / seconds),
      statementsPerDelivery: Number(statementsPerDelivery.toFixed(2)),
      cpuMsPerDelivery: Number(cpuMsPerDelivery.toFixed(3)),
      latencyMs: latencies,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.close();
    await receiver.close();
    await throughputReceiver?.close();
    await bench.close();
  }
}

await main();
