import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { ALL_SCOPES, type Role } from '../../src/contract/access.ts';
import { MINOR_PATTERN, SIGNED_MINOR_PATTERN } from '../../src/contract/formats.ts';
import type { AnyOperation } from '../../src/operations/define.ts';
import { type Caller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { API_OPERATIONS, addCaller, exampleOf, newOrganization } from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * Issue 27: the edges of the one date range (1900-01-01..2999-12-31) and of the money range
 * (±9007199254740991 minor units), and values just beyond them, sent in EVERY date, timestamp and
 * amount field of every operation (nested ones too, where the example has them). Nothing answers
 * 5xx; afterwards every background job runs to its end with no job left running or retrying and no
 * row set aside, so nothing the service accepted can break later work.
 */

const DATES = ['1900-01-01', '2999-12-31', '1899-12-31', '3000-01-01', '0000-01-01', '9999-12-31'];
const TIMESTAMPS = [
  '1900-01-01T00:00:00Z',
  '2999-12-31T23:59:59Z',
  '1899-12-31T23:59:59Z',
  '3000-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '2999-12-31T23:59:59-14:00',
];
const AMOUNTS = [
  '9007199254740991',
  '-9007199254740991',
  '9007199254740992',
  '-9007199254740993',
  '999999999999999999',
];

type Kind = 'date' | 'timestamp' | 'amount';
interface Slot {
  path: (string | number)[];
  kind: Kind;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(schema: Record<string, unknown>): Kind | undefined {
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'timestamp';
  if (schema.pattern === MINOR_PATTERN || schema.pattern === SIGNED_MINOR_PATTERN) return 'amount';
  return undefined;
}

/** Every date, timestamp and amount slot of a schema, following the example's own nesting. */
function slotsOf(schema: unknown, example: unknown, path: (string | number)[] = []): Slot[] {
  if (!isObject(schema)) return [];
  const kind = kindOf(schema);
  if (kind) return [{ path, kind }];
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.flatMap((s) => slotsOf(s, example, path));
  if (isObject(schema.properties)) {
    return Object.entries(schema.properties).flatMap(([name, sub]) =>
      // Top-level fields are tried whether the example has them or not; nested ones only inside it.
      path.length === 0 || (isObject(example) && name in example)
        ? slotsOf(sub, isObject(example) ? example[name] : undefined, [...path, name])
        : [],
    );
  }
  if (isObject(schema.items) && Array.isArray(example) && example.length > 0)
    return slotsOf(schema.items, example[0], [...path, 0]);
  return [];
}

function withValue(example: Record<string, unknown>, path: (string | number)[], value: string) {
  const copy = structuredClone(example) as Record<string, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = value;
  return copy;
}

const valuesFor = (kind: Kind) => (kind === 'date' ? DATES : kind === 'timestamp' ? TIMESTAMPS : AMOUNTS);

function roleFor(operation: AnyOperation): Role {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

const WITH_SLOTS = API_OPERATIONS.filter(
  (operation) => slotsOf(operation.input, exampleOf(operation)).length > 0,
);

for (const dialect of DIALECTS) {
  describe(`extreme dates and amounts in every field that takes them (${dialect})`, () => {
    let app: TestApp;
    const callers = new Map<Role, Caller>();
    // Warnings and errors of the service (a job's failure, a row set aside) are collected here.
    const complaints: string[] = [];
    before(async () => {
      const sink = new Writable({
        write(chunk, _encoding, done) {
          const entry = JSON.parse(String(chunk)) as { level: number; msg?: string };
          if (entry.level >= 40) complaints.push(String(chunk).slice(0, 400));
          done();
        },
      });
      app = await startTestApp(dialect, { logger: pino({ level: 'warn' }, sink) });
      const organizationId = await newOrganization(app, 'Extremes org');
      for (const role of ['admin', 'finance'] as const) {
        callers.set(role, await addCaller(app, organizationId, { role, scopes: ALL_SCOPES }));
      }
    });
    after(() => app?.close());

    it('finds the slots to try (the walk itself can fail)', () => {
      const names = WITH_SLOTS.map((operation) => operation.name);
      for (const expected of ['transactions.create', 'entries.list', 'entries.export', 'transactions.list'])
        assert.ok(names.includes(expected), `${expected} has a date or amount field`);
    });

    for (const operation of WITH_SLOTS) {
      it(operation.name, async () => {
        const token = callers.get(roleFor(operation))?.token ?? '';
        for (const slot of slotsOf(operation.input, exampleOf(operation))) {
          for (const value of valuesFor(slot.kind)) {
            const input = withValue(exampleOf(operation), slot.path, value);
            const res = await call(app.baseUrl, operation.name, input, { token });
            const label = `${operation.name} ${slot.path.join('.')}=${value} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            assert.ok(res.status < 500, label);
            if (res.status >= 400) assert.equal(typeof res.error?.code, 'string', label);
          }
        }
      });
    }

    it('leaves no job failing: every job runs to its end, twice over, with nothing set aside', async () => {
      await app.runJobs();
      await app.runJobs();
      const stuck = await app.services.db.kysely
        .selectFrom('books_jobs')
        .select(['kind', 'state', 'attempts', 'error_code', 'error_message'])
        .where((eb) =>
          eb.or([eb('state', '=', 'running'), eb.and([eb('state', '=', 'queued'), eb('attempts', '>', 0)])]),
        )
        .execute();
      assert.deepEqual(stuck, [], 'no job is left running or waiting to retry');
      assert.deepEqual(complaints, [], 'no job failed and no row was set aside');
    });
  });
}
