// Webhook delivery benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/webhook-delivery.ts [sqlite|postgres] [--events 2000] [--endpoints 20]
//
// 1. Throughput: `events` events fanned out to `endpoints` endpoints on one local receiver that
//    answers 200 at once; one worker (this process, default settings) drains the queue.
// 2. Latency: events committed at a steady rate while the worker job runs; time from each event's
//    commit to its first attempt reaching the receiver. Measured twice: as `accounting worker` sees
//    events committed by another process (idle poll 100 ms), and as `serve` sees its own commits
//    (the after-commit wake-up of src/unit/wakeups.ts).
// PostgreSQL uses TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) for a scratch database.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../src/admin/organizations.ts';
import { loadConfig } from '../src/config.ts';
import { type DialectName, openDatabase } from '../src/db/database.ts';
import { startJobs } from '../src/jobs/runner.ts';
import { webhookDeliveryJob } from '../src/jobs/webhook-jobs.ts';
import { buildServer } from '../src/server.ts';
import { createServices, type Services } from '../src/services.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { call } from '../test/support/http.ts';
import { startWebhookReceiver } from '../test/support/webhook-receiver.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    events: { type: 'string', default: '2000' },
    endpoints: { type: 'string', default: '20' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
  },
});
const dialect: DialectName = positionals[0] === 'postgres' ? 'postgres' : 'sqlite';
const EVENTS = Number(values.events);
const ENDPOINTS = Number(values.endpoints);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);

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

async function main(): Promise<void> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true' });
  // The production pool size (10) rather than the test harness's 5.
  const db =
    database.url === undefined
      ? database.db
      : openDatabase({ databaseUrl: database.url, dataDir: database.env.ACCOUNTING_DATA_DIR, poolSize: 10 });
  const services = await createServices(config, { db, logger: pino({ level: 'silent' }) });
  const server = await buildServer(services);
  const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  const receiver = await startWebhookReceiver({ status: 200 });
  try {
    const { kysely } = services.db;
    const setup = async (name: string, endpoints: number) => {
      const org = await createOrganization(kysely, services.clock, { name });
      const member = await addMember(kysely, services.clock, {
        organizationId: org.id,
        email: `${name}@example.com`,
        role: 'admin',
      });
      const { token } = await createApiKey(kysely, services.clock, {
        organizationId: org.id,
        memberId: member.id,
        scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
      });
      for (let i = 0; i < endpoints; i++) {
        const res = await call(
          baseUrl,
          'webhooks.endpoints.create',
          { url: `${receiver.url}/${name}/${i}`, events: ['contractor.*'] },
          { token },
        );
        if (res.status !== 200) throw new Error(`endpoint create: ${JSON.stringify(res.body)}`);
      }
      return org.id;
    };

    // 1. Throughput.
    const throughputOrg = await setup('throughput', ENDPOINTS);
    for (let i = 0; i < Math.ceil(EVENTS / ENDPOINTS); i++) await recordEvent(services, throughputOrg, i);
    const deliveries = await pendingCount(services, throughputOrg);
    const started = performance.now();
    while ((await webhookDeliveryJob.run(services)) > 0);
    const seconds = (performance.now() - started) / 1000;
    const left = await pendingCount(services, throughputOrg);
    if (left !== 0) throw new Error(`${left} deliveries left pending`);

    // 2. Latency, with the job loop of `accounting worker` (poll) and of `serve` (nudge).
    const latency = async (mode: 'poll' | 'nudge') => {
      const org = await setup(`latency-${mode}`, 1);
      const committed = new Map<string, number>();
      const jobs = startJobs(services, [webhookDeliveryJob]);
      const gapMs = 1000 / RATE;
      const until = performance.now() + SECONDS * 1000;
      for (let n = 0; performance.now() < until; n++) {
        const id = await recordEvent(services, org, n);
        committed.set(id, Date.now());
        // What an operation's unit of work does after its commit (src/operations/execute.ts).
        if (mode === 'nudge') services.wakeups.notify('events');
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      while ((await pendingCount(services, org)) > 0) await new Promise((r) => setTimeout(r, 50));
      await jobs.stop();
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
    const polled = await latency('poll');
    const nudged = await latency('nudge');

    const result = {
      dialect,
      deliveries,
      endpoints: ENDPOINTS,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(deliveries / seconds),
      latencyMsPolled: polled,
      latencyMsNudged: nudged,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.close();
    await receiver.close();
    if (db !== database.db) await db.close();
    await database.drop();
  }
}

await main();
