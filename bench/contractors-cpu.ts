// CPU time per request of the contractors API, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/contractors-cpu.ts <sqlite|postgres>
//
// The throughput benchmark (contractors-api.ts) measures wall time, which a loaded shared machine
// distorts by factors of three between runs a minute apart. This one counts the CPU this process
// spends per request (process.cpuUsage), through Fastify's inject (no sockets), for the real
// service and for a bare Fastify app running only the single statement: 2000 lists of 30 and 1000
// creates each, after 200 discarded warm-up requests. On PostgreSQL it counts the Node side only.
//
//   node --import tsx bench/contractors-cpu.ts sqlite --profile-dir /tmp/prof
//
// also writes list.cpuprofile and create.cpuprofile (V8 CPU profiles of the service's measured
// loops only, not the set-up) and bare-list.cpuprofile (the bare list's loop, to compare with),
// to open in Chrome DevTools or speedscope.
//
// It also counts the statements each route sends to the database per request (BEGIN and COMMIT
// included; PostgreSQL: every query on a pooled client, SQLite: every statement run), which the
// machine's load does not change.

import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import type { DialectName } from '../src/db/database.ts';
import { dbBool } from '../src/db/values.ts';
import { newId } from '../src/lib/ids.ts';
import { contractorsPage } from '../src/operations/contractors/list.ts';
import { toContractor } from '../src/operations/contractors/schema.ts';
import { offsetPage } from '../src/operations/pagination.ts';
import { buildServer } from '../src/server.ts';
import type { createServices } from '../src/services.ts';
import { benchOrganization, startBenchService } from './support/bench-service.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'profile-dir': { type: 'string' } },
});
const profileDir = values['profile-dir'];
const dialect: DialectName = positionals[0] === 'postgres' ? 'postgres' : 'sqlite';

/** Statements sent to the database so far (see countStatements). */
let statements = 0;

/** Counts every statement of this process: pg client queries, or better-sqlite3 statement runs. */
function countStatements(db: Awaited<ReturnType<typeof createServices>>['db']): void {
  if (db.dialect === 'postgres') {
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      statements += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    return;
  }
  const probe = new BetterSqlite3(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['all', 'run', 'get', 'iterate']) {
    const original = prototype[method] as (...a: unknown[]) => unknown;
    prototype[method] = function counted(this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    };
  }
}

interface Injected {
  statusCode: number;
  body: string;
}

async function cpuPerRequest(
  times: number,
  send: () => Promise<Injected>,
  profileName?: string,
): Promise<{ cpu: number; statements: number }> {
  for (let i = 0; i < 200; i += 1) await send();
  const profiler = profileName && profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const start = process.cpuUsage();
  const statementsBefore = statements;
  for (let i = 0; i < times; i += 1) {
    const res = await send();
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  const used = process.cpuUsage(start);
  const sent = statements - statementsBefore;
  if (profiler && profileDir) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(join(profileDir, `${profileName}.cpuprofile`), JSON.stringify(profile));
    profiler.disconnect();
  }
  return { cpu: (used.user + used.system) / times, statements: sent / times };
}

async function main(): Promise<void> {
  const bench = await startBenchService(
    dialect,
    loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_RATE_LIMIT: '100000000/1m' }),
  );
  const { services } = bench;
  const server = await buildServer(services);
  const { kysely } = services.db;
  countStatements(services.db);
  const { organizationId, token } = await benchOrganization(services, 'bench');
  const auth = { authorization: `Bearer ${token}` };
  let sequence = 0;
  const nextInput = () => {
    sequence += 1;
    const n = `${process.pid}-${sequence}`;
    return { displayName: `Bench ${n}`, legalName: `Bench Contractor ${n}`, email: `bench-${n}@example.com` };
  };
  const create = () =>
    server.inject({
      method: 'POST',
      url: '/api/v1/accounting/contractors.create',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-${sequence + 1}` },
      payload: JSON.stringify(nextInput()),
    });
  for (let i = 0; i < 300; i += 1) await create();

  const bare = Fastify();
  bare.get('/bare/list', async () => {
    // contractors.list's own statement (limit + 1 rows: the extra one says whether a next page
    // exists), read as the operation reads it (on SQLite through the read pool, decision 288), and
    // its own response body, without the pipeline around it.
    const rows = await contractorsPage(services.db.readKysely, organizationId, services.clock.now(), {
      limit: 30 + 1,
      offset: 0,
    }).execute();
    return { data: offsetPage(rows.map(toContractor), 30, 0) };
  });
  bare.post('/bare/create', async (request) => {
    const input = request.body as ReturnType<typeof nextInput>;
    const now = new Date().toISOString();
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

  try {
    const list = await cpuPerRequest(
      2000,
      () =>
        server.inject({ method: 'GET', url: '/api/v1/accounting/contractors.list?limit=30', headers: auth }),
      'list',
    );
    const bareList = await cpuPerRequest(
      2000,
      () => bare.inject({ method: 'GET', url: '/bare/list' }),
      'bare-list',
    );
    const created = await cpuPerRequest(1000, create, 'create');
    const bareCreate = await cpuPerRequest(1000, () =>
      bare.inject({
        method: 'POST',
        url: '/bare/create',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(nextInput()),
      }),
    );
    const pct = (floor: number, full: number) => `${Math.round((floor / full) * 100)} %`;
    const per = (n: number) => n.toFixed(2).replace(/\.?0+$/, '');
    process.stdout.write(
      `${dialect}: CPU µs per request: list ${Math.round(list.cpu)}, bare list ${Math.round(bareList.cpu)} ` +
        `(${pct(bareList.cpu, list.cpu)}); create ${Math.round(created.cpu)}, bare create ${Math.round(bareCreate.cpu)} ` +
        `(${pct(bareCreate.cpu, created.cpu)})\n` +
        `${dialect}: statements per request: list ${per(list.statements)}, bare list ${per(bareList.statements)}; ` +
        `create ${per(created.statements)}, bare create ${per(bareCreate.statements)}\n`,
    );
  } finally {
    await server.close();
    await bare.close();
    await bench.close();
  }
}

await main();
