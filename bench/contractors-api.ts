// Contractors API benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/contractors-api.ts <sqlite|postgres> [--seconds 10] [--connections 10]
//     [--contractors 500] [--warmup 2]
//
// Starts the real service (full pipeline: API key lookup, membership check, rate limit, validation,
// idempotency, audit, events and webhook fan-out) and, in the same process on the same Kysely
// instance, a bare Fastify app doing only the single query of each operation. Seeds one
// organization with `contractors` contractors, then runs autocannon (in this process, as the
// client) against, in order: contractors.list, the bare list, contractors.create, the bare create,
// each for `seconds` with `connections` connections after `warmup` discarded seconds.
// PostgreSQL uses TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) for a scratch database.

import { parseArgs } from 'node:util';
// @ts-expect-error autocannon 8 ships no type declarations; the parts used are typed below.
import autocannonUntyped from 'autocannon';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.ts';
import type { DialectName } from '../src/db/database.ts';
import { dbBool } from '../src/db/values.ts';
import { newId } from '../src/lib/ids.ts';
import { contractorsPage } from '../src/operations/contractors/list.ts';
import { toContractor } from '../src/operations/contractors/schema.ts';
import { offsetPage } from '../src/operations/pagination.ts';
import { buildServer } from '../src/server.ts';
import { benchOrganization, startBenchService } from './support/bench-service.ts';

interface BenchRequest {
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: BenchRequest) => BenchRequest;
}

interface BenchOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: BenchRequest[];
}

interface BenchResult {
  requests: { average: number; total: number; sent: number };
  latency: { average: number; p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

const autocannon = autocannonUntyped as (options: BenchOptions) => Promise<BenchResult>;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    contractors: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '2' },
  },
});
const dialect: DialectName = positionals[0] === 'postgres' ? 'postgres' : 'sqlite';
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const CONTRACTORS = Number(values.contractors);
const WARMUP = Number(values.warmup);
const LIMIT = 30;
const PREFIX = '/api/v1/accounting';

/** Unique across the whole run (seed, warm-ups and measured runs), so every create is a new contractor. */
let sequence = 0;
function next(): string {
  sequence += 1;
  return `${process.pid}-${sequence}`;
}

function contractorInput(n: string) {
  return { displayName: `Bench ${n}`, legalName: `Bench Contractor ${n}`, email: `bench-${n}@example.com` };
}

interface Row {
  route: string;
  result: BenchResult;
}

function table(rows: Row[]): string {
  const lines = [
    '| route | requests/s | p50 | p99 | errors / non-2xx | requests |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const { route, result } of rows) {
    const failures = `${result.errors + result.timeouts} / ${result.non2xx}`;
    lines.push(
      `| ${route} | ${Math.round(result.requests.average)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${failures} | ${result.requests.total} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const bench = await startBenchService(
    dialect,
    loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_RATE_LIMIT: '100000000/1m' }),
  );
  const { services } = bench;
  const server = await buildServer(services);
  const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  const { kysely } = services.db;
  const { organizationId, token } = await benchOrganization(services, 'bench');

  // The floor: the same single statement per request, no auth, idempotency, audit or events.
  const bare = Fastify();
  bare.get('/bare/list', async () => {
    // contractors.list's own statement (limit + 1 rows: the extra one says whether a next page
    // exists), read as the operation reads it (on SQLite through the read pool, decision 288), and
    // its own response body, without the pipeline around it.
    const rows = await contractorsPage(services.db.readKysely, organizationId, services.clock.now(), {
      limit: LIMIT + 1,
      offset: 0,
    }).execute();
    return { data: offsetPage(rows.map(toContractor), LIMIT, 0) };
  });
  bare.post('/bare/create', async (request) => {
    const input = request.body as ReturnType<typeof contractorInput>;
    const now = new Date().toISOString();
    // The columns contractors.create writes.
    const row = {
      id: newId(),
      organization_id: organizationId,
      display_name: input.displayName,
      legal_name: input.legalName,
      email: input.email,
      email_normalized: input.email.toLowerCase(),
      country: null,
      active: dbBool(true),
      job_role_id: null,
      joined_at: null,
      tax_residency: null,
      tax_services_in_canada: null,
      tax_identity_confirmed: dbBool(false),
      tax_reviewed_at: null,
      tax_reviewed_by: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    await kysely.insertInto('contractors').values(row).execute();
    return { data: toContractor(row) };
  });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  try {
    // Seed through the API, 10 at a time.
    for (let i = 0; i < CONTRACTORS; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, CONTRACTORS - i) }, async () => {
          const n = next();
          const res = await fetch(`${baseUrl}${PREFIX}/contractors.create`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': `bench-seed-${n}`,
            },
            body: JSON.stringify(contractorInput(n)),
          });
          if (res.status !== 200) throw new Error(`seed: ${res.status} ${await res.text()}`);
        }),
      );
    }

    const auth = { authorization: `Bearer ${token}` };
    const createRequest = (path: string, headers: Record<string, string>): BenchRequest => ({
      method: 'POST',
      path,
      setupRequest(request) {
        const n = next();
        request.headers = { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${n}` };
        request.body = JSON.stringify(contractorInput(n));
        return request;
      },
    });
    const targets: Array<{ route: string; options: Omit<BenchOptions, 'connections' | 'duration'> }> = [
      {
        route: '`contractors.list` (GET, limit 30)',
        options: { url: `${baseUrl}${PREFIX}/contractors.list?limit=${LIMIT}`, headers: auth },
      },
      { route: 'bare list (GET)', options: { url: `${bareUrl}/bare/list` } },
      {
        route: '`contractors.create` (POST)',
        options: { url: baseUrl, requests: [createRequest(`${PREFIX}/contractors.create`, auth)] },
      },
      {
        route: 'bare create (POST)',
        options: { url: bareUrl, requests: [createRequest('/bare/create', {})] },
      },
    ];

    const rows: Row[] = [];
    for (const { route, options } of targets) {
      if (WARMUP > 0) await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP });
      const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
      rows.push({ route, result });
      process.stderr.write(`${route}: ${JSON.stringify(result.statusCodeStats)}\n`);
    }

    const count = await kysely
      .selectFrom('contractors')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    process.stdout.write(
      `${dialect}, ${SECONDS} s per route, ${CONNECTIONS} connections, ${CONTRACTORS} contractors seeded, ` +
        `${count.n} at the end\n\n${table(rows)}\n`,
    );
  } finally {
    await server.close();
    await bare.close();
    await bench.close();
  }
}

await main();
