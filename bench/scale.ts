// Scale benchmark, run by hand (results go to docs/benchmarks.md, "Scale (1 M rows)"):
//
//   node --import tsx bench/scale.ts <sqlite|postgres> [--rows 1000000] [--samples 7]
//     [--seconds 5] [--keep]
//
// Seeds `rows` contractors, `rows` events and `rows` webhook deliveries in ONE organization,
// directly through the database (SQLite: recursive CTEs in one transaction; PostgreSQL:
// generate_series), then through the real HTTP API (full pipeline) prints the median latency of
// `samples` requests (after 2 discarded), and the fastest in brackets, for:
//   - the cursor lists webhooks.events.list and webhooks.deliveries.list, at depths 0 / 10k / 100k / 900k
//     (the cursor of the row at that depth);
//   - contractors.list, an offset list: offset 0 / 10k / 100k / 900k;
//   - contractors.list `query` searches: no match (trigram-indexed), a rare match, a common word,
//     and one- and two-character queries (below the trigram index: the 2,000 newest, decision 265).
// Then the stall check: plain contractors.list requests/s for `seconds` alone, and again while ten
// clients keep sending a search with no match (three or more characters, then two). On SQLite,
// ACCOUNTING_SQLITE_READERS=0 runs everything on the writer, as before decision 266.
// The database is a scratch one (a temporary SQLite folder, or a new PostgreSQL database on
// TEST_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), dropped at the end unless --keep.

import { parseArgs } from 'node:util';
// @ts-expect-error autocannon ships no type declarations; the parts used are typed below.
import autocannonUntyped from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import type { Db, DialectName } from '../src/db/database.ts';
import { ensureSearchIndex } from '../src/db/search-index.ts';
import { encodeCursor } from '../src/operations/pagination.ts';
import { buildServer } from '../src/server.ts';
import { benchOrganization, startBenchService } from './support/bench-service.ts';

const autocannon = autocannonUntyped as (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<{ requests: { average: number }; non2xx: number; errors: number }>;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: 'string', default: '1000000' },
    samples: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const dialect: DialectName = positionals[0] === 'postgres' ? 'postgres' : 'sqlite';
const ROWS = Number(values.rows);
const SAMPLES = Number(values.samples);
const SECONDS = Number(values.seconds);
const PREFIX = '/api/v1/accounting';
const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');
const DEPTHS = [0, 10_000, 100_000, 900_000].filter((depth) => depth < ROWS);

/** Deterministic uuid-shaped ids, one hex prefix per table: row i of table c is c0000000-...-<i>. */
const idSqlite = (prefix: string) => `printf('${prefix}0000000-0000-7000-8000-%012x', i)`;
const idPostgres = (prefix: string) =>
  `('${prefix}0000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid`;

/** "median (min)": on a loaded machine the minimum shows the cost with the least interference. */
function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return `${median.toFixed(2)} ms (${(sorted[0] ?? Number.NaN).toFixed(2)})`;
}

async function main(): Promise<void> {
  const bench = await startBenchService(
    dialect,
    loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_RATE_LIMIT: '100000000/1m' }),
  );
  const { database, services } = bench;
  const server = await buildServer(services);
  const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  const { kysely } = services.db;
  try {
    const { organizationId, token } = await benchOrganization(services, 'scale');
    const auth = { authorization: `Bearer ${token}` };
    const api = async (operation: string, input: Record<string, unknown>) => {
      const query = new URLSearchParams(
        Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const res = await fetch(`${baseUrl}${PREFIX}/${operation}?${query}`, { headers: auth });
      const body = (await res.json()) as { data?: { items: unknown[] } };
      if (res.status !== 200) throw new Error(`${operation}: ${res.status} ${JSON.stringify(body)}`);
      return body.data;
    };
    const endpoint = await fetch(`${baseUrl}${PREFIX}/webhooks.endpoints.create`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'scale-endpoint' },
      body: JSON.stringify({ url: 'https://receiver.example.com/hook', events: ['*'] }),
    });
    const made = (await endpoint.json()) as { data?: { endpoint: { id: string } } };
    if (!made.data) throw new Error(`webhooks.endpoints.create: ${endpoint.status} ${JSON.stringify(made)}`);
    const endpointId = made.data.endpoint.id;

    const seedStart = performance.now();
    await seed(services.db, organizationId, endpointId);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    process.stdout.write(`# Scale, ${dialect}, ${ROWS.toLocaleString('en')} rows per table\n\n`);
    process.stdout.write(`Seeded in ${seedSeconds.toFixed(1)} s.\n\n`);

    const time = async (operation: string, input: Record<string, unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES + 2; i += 1) {
        const start = performance.now();
        await api(operation, input);
        if (i >= 2) samples.push(performance.now() - start);
      }
      return summary(samples);
    };
    const cursorAt = async (table: 'events' | 'webhook_deliveries', depth: number) => {
      // The last row of the page before `depth`: the next page starts at row `depth`.
      if (depth === 0) return undefined;
      const row = await kysely
        .selectFrom(table)
        .select(['created_at', 'id'])
        .where('organization_id', '=', organizationId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(depth - 1)
        .limit(1)
        .executeTakeFirstOrThrow();
      return encodeCursor({ createdAt: new Date(row.created_at).toISOString(), id: row.id });
    };

    const lines = [
      '| page (limit 30), median (min) | ' +
        DEPTHS.map((d) => `depth ${d.toLocaleString('en')}`).join(' | ') +
        ' |',
    ];
    lines.push(`| --- |${DEPTHS.map(() => ' --- |').join('')}`);
    for (const [operation, table] of [
      ['webhooks.events.list', 'events'],
      ['webhooks.deliveries.list', 'webhook_deliveries'],
    ] as const) {
      const cells: string[] = [];
      for (const depth of DEPTHS) {
        const cursor = await cursorAt(table, depth);
        cells.push(await time(operation, { limit: 30, ...(cursor ? { cursor } : {}) }));
      }
      lines.push(`| \`${operation}\` (cursor) | ${cells.join(' | ')} |`);
    }
    const offsets: string[] = [];
    for (const depth of DEPTHS) offsets.push(await time('contractors.list', { limit: 30, offset: depth }));
    lines.push(`| \`contractors.list\` (offset) | ${offsets.join(' | ')} |`);
    process.stdout.write(`${lines.join('\n')}\n\n`);

    const searches: Array<[string, string]> = [
      ['no match (`zzqqxx`)', 'zzqqxx'],
      [`one match (\`Contractor ${Math.floor(ROWS / 2)} \`)`, `Contractor ${Math.floor(ROWS / 2)} `],
      ['every row matches (`legal`): common, walked newest first', 'legal'],
      ['two characters, no match (`zq`): the 2,000 newest', 'zq'],
      ['one character (`7`)', '7'],
      ['one character, no match (`~`): the 2,000 newest', '~'],
    ];
    const searchLines = ['| `contractors.list` search | median (min) |', '| --- | --- |'];
    for (const [label, query] of searches) {
      searchLines.push(`| ${label} | ${await time('contractors.list', { limit: 30, query })} |`);
    }
    process.stdout.write(`${searchLines.join('\n')}\n\n`);

    // Stall check: plain lists alone, then beside ten clients running a search with no match
    // (what issue 16 measured), then beside ten running a two-character one (the window walk).
    const listUrl = `${baseUrl}${PREFIX}/contractors.list?limit=30`;
    const plain = () => autocannon({ url: listUrl, connections: 10, duration: SECONDS, headers: auth });
    const beside = async (query: string) => {
      let stop = false;
      const clients = Array.from({ length: 10 }, async () => {
        while (!stop) await api('contractors.list', { limit: 30, query });
      });
      const result = await plain();
      stop = true;
      await Promise.all(clients);
      return result;
    };
    const stall = [
      ['alone', await plain()],
      ['beside 10 clients searching `zzqqxx` (no match)', await beside('zzqqxx')],
      ['beside 10 clients searching `zq` (two characters, no match)', await beside('zq')],
    ] as const;
    const stallLines = ['| plain `contractors.list` (10 connections) | requests/s |', '| --- | --- |'];
    for (const [label, result] of stall) {
      stallLines.push(`| ${label} | ${Math.round(result.requests.average)} |`);
      if (result.non2xx + result.errors > 0)
        stallLines.push(`| (${result.non2xx + result.errors} failed) | |`);
    }
    process.stdout.write(`${stallLines.join('\n')}\n`);
  } finally {
    await server.close();
    await bench.close({ keep: values.keep === true });
    if (values.keep) process.stdout.write(`Kept: ${database.url ?? database.env.ACCOUNTING_DATA_DIR}\n`);
  }
}

async function seed(db: Db, orgId: string, endpointId: string): Promise<void> {
  const { kysely } = db;
  if (dialect === 'sqlite') {
    const at = `strftime('%Y-%m-%dT%H:%M:%fZ', (${BASE_MS} + i) / 1000.0, 'unixepoch')`;
    const series = `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})`;
    await kysely.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      await sql
        .raw(`${series} insert into contractors (id, organization_id, display_name, legal_name, email, email_normalized,
          active, tax_identity_confirmed, revision, created_at, updated_at)
        select ${idSqlite('c')}, '${orgId}', 'Contractor ' || i || ' ', 'Legal Name ' || i || ' Ltd',
          'c' || i || '@example.com', 'c' || i || '@example.com', 1, 0, 1, ${at}, ${at} from n`)
        .execute(connection);
      await sql
        .raw(`${series} insert into events (id, organization_id, type, subject_type, subject_id, data, created_at)
        select ${idSqlite('e')}, '${orgId}', 'contractor.created', 'contractor', ${idSqlite('c')}, '{}', ${at} from n`)
        .execute(connection);
      await sql
        .raw(`${series} insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, attempt_count,
          next_attempt_at, created_at, updated_at, completed_at)
        select ${idSqlite('d')}, '${orgId}', '${endpointId}', ${idSqlite('e')}, 'succeeded', 1, ${at}, ${at}, ${at}, ${at} from n`)
        .execute(connection);
      await sql`commit`.execute(connection);
      await sql`analyze`.execute(connection);
    });
    return;
  }
  // The trigram indexes are built once after the rows (much faster than a GIN update per row).
  await sql`drop index if exists contractors_display_name_trgm`.execute(kysely);
  await sql`drop index if exists contractors_legal_name_trgm`.execute(kysely);
  const at = `(timestamptz '2026-01-01T00:00:00Z' + i * interval '1 millisecond')`;
  const series = `from generate_series(1, ${ROWS}) as i`;
  await sql
    .raw(`insert into contractors (id, organization_id, display_name, legal_name, email, email_normalized,
      active, tax_identity_confirmed, revision, created_at, updated_at)
    select ${idPostgres('c')}, '${orgId}', 'Contractor ' || i || ' ', 'Legal Name ' || i || ' Ltd',
      'c' || i || '@example.com', 'c' || i || '@example.com', true, false, 1, ${at}, ${at} ${series}`)
    .execute(kysely);
  await sql
    .raw(`insert into events (id, organization_id, type, subject_type, subject_id, data, created_at)
    select ${idPostgres('e')}, '${orgId}', 'contractor.created', 'contractor', ${idPostgres('c')}::text, '{}', ${at} ${series}`)
    .execute(kysely);
  await sql
    .raw(`insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, attempt_count,
      next_attempt_at, created_at, updated_at, completed_at)
    select ${idPostgres('d')}, '${orgId}', '${endpointId}', ${idPostgres('e')}, 'succeeded', 1, ${at}, ${at}, ${at}, ${at} ${series}`)
    .execute(kysely);
  if (!(await ensureSearchIndex(db)).indexed) throw new Error('pg_trgm is not available');
  // The state autovacuum leaves a table in after a large insert (PostgreSQL 13+ vacuums
  // insert-only tables too): measured after it, not while it runs beside the timings.
  await sql`vacuum analyze`.execute(kysely);
}

await main();
