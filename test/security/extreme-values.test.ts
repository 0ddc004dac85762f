import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import { MINOR_PATTERN, SIGNED_MINOR_PATTERN } from '../../src/contract/formats.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import type { AnyOperation } from '../../src/operations/define.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertCommonHeaders } from '../support/expect.ts';
import {
  addCaller,
  exampleOf,
  factoryFor,
  idFields,
  inputProperties,
  newOrganization,
} from '../support/factories.ts';
import { type ApiResponse, call } from '../support/http.ts';

/**
 * Issue 27 "done means": every operation that takes a date, a timestamp or an amount gets the
 * edges of the service's ranges (decisions 320, 321) and the values just outside and far beyond,
 * field by field, on records that exist. No answer is a 5xx, a value outside the range is a 400
 * naming the field, and afterwards every background job runs clean: none throws, none counts a
 * failure, no books job (imports, exports, receipt reads) is left failed or waiting to retry.
 *
 * The fields are found by walking the catalog's input schemas (the `date`/`date-time` formats,
 * the money patterns, and any other `...Minor` string), so a new operation is covered by itself.
 */

type Kind = 'date' | 'timestamp' | 'signed' | 'minor' | 'otherMinor';
type Path = Array<string | number>;
interface Field {
  path: Path;
  kind: Kind;
}

function fieldsOf(schema: unknown, path: Path = [], out: Field[] = []): Field[] {
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Record<string, unknown>;
  const last = path.at(-1);
  if (s.format === 'date') out.push({ path, kind: 'date' });
  else if (s.format === 'date-time') out.push({ path, kind: 'timestamp' });
  else if (s.pattern === SIGNED_MINOR_PATTERN) out.push({ path, kind: 'signed' });
  else if (s.pattern === MINOR_PATTERN) out.push({ path, kind: 'minor' });
  else if (s.type === 'string' && typeof last === 'string' && /Minor$/.test(last)) {
    out.push({ path, kind: 'otherMinor' });
  }
  if (typeof s.properties === 'object' && s.properties !== null) {
    for (const [key, value] of Object.entries(s.properties)) fieldsOf(value, [...path, key], out);
  }
  if (s.items) fieldsOf(s.items, [...path, 0], out);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(s[key])) for (const value of s[key]) fieldsOf(value, path, out);
  }
  return out;
}

/** In range: must never be a 5xx, may be refused by a rule of the operation (due before issue). */
const INSIDE: Record<Kind, string[]> = {
  date: ['1900-01-01', '2999-12-31'],
  timestamp: ['1900-01-01T00:00:00Z', '2999-12-31T23:59:59.999Z', '1900-01-01T00:00:00+14:00'],
  signed: ['9007199254740991', '-9007199254740991'],
  minor: ['9007199254740991'],
  otherMinor: ['9007199254740991'],
};

/** Outside the range: a 400 at the edge. */
const OUTSIDE: Record<Kind, string[]> = {
  date: ['1899-12-31', '3000-01-01', '0000-01-01', '0001-01-01', '9999-12-31'],
  timestamp: [
    '1899-12-31T23:59:59Z',
    '3000-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ],
  signed: ['9007199254740992', '-9007199254740992', '999999999999999999', '-999999999999999999'],
  minor: ['9007199254740992', '999999999999999999'],
  otherMinor: ['9007199254740992', '9999999999999999', '999999999999999999'],
};

/** Where an example leaves out the object that holds the field, the shape that has it. */
const PLACES: Record<string, Record<string, unknown>> = {
  'entries.update': {
    allocations: [{ categoryId: '00000000-0000-0000-0000-000000000000', amountMinor: '0', taxMinor: '0' }],
  },
};

/** Sets `value` at `path` when the example has the place for it (a branch of a union it uses). */
function withValue(
  input: Record<string, unknown>,
  path: Path,
  value: string,
): Record<string, unknown> | null {
  const copy = structuredClone(input);
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return null;
    const next = (node as Record<string | number, unknown>)[key];
    if (typeof next !== 'object' || next === null) return null;
    node = next;
  }
  if (typeof node !== 'object' || node === null) return null;
  (node as Record<string | number, unknown>)[path.at(-1) as string | number] = value;
  return copy;
}

function roleFor(operation: AnyOperation) {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

const CASES = OPERATIONS.filter((operation) => operation.access.roles !== 'dashboard')
  .map((operation) => ({ operation, fields: fieldsOf(operation.input) }))
  .filter(({ fields }) => fields.length > 0);

function assertNo5xx(res: ApiResponse, label: string) {
  const text = `${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  assert.ok(res.status < 500, text);
  assertCommonHeaders(res, label);
}

for (const dialect of DIALECTS) {
  describe(`extreme dates and amounts on every operation that takes them (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('the catalog walk finds the fields the issue names', () => {
      const names = new Set(CASES.map((c) => c.operation.name));
      for (const name of [
        'transactions.create',
        'transactions.list',
        'entries.list',
        'entries.export',
        'entries.update',
        'accounts.create',
        'mail.items.upload',
        'inbox.confirm',
        'invoices.create',
      ]) {
        assert.ok(names.has(name), `${name} takes a date or an amount`);
      }
    });

    /**
     * The example input on records that exist (its `id`, its required id fields and revision), in
     * an organization of its own: examples share names and emails that are unique per organization.
     */
    async function prepared(operation: AnyOperation) {
      const organizationId = await newOrganization(app, 'Extremes org');
      const caller = await addCaller(app, organizationId, { role: roleFor(operation), scopes: ALL_SCOPES });
      const input = { ...exampleOf(operation), ...PLACES[operation.name] };
      for (const { field, resource } of idFields(operation)) {
        const make = resource ? factoryFor(resource) : undefined;
        if (!make) continue;
        const made = await make(app, caller);
        input[field] = made.id;
        // The revision is the `id` record's, or (invoices.payments.record) the one record named.
        const owner = field === 'id' || !('id' in inputProperties(operation));
        if (owner && made.revision !== undefined && 'expectedRevision' in inputProperties(operation)) {
          input.expectedRevision = made.revision;
        }
      }
      return { caller, input };
    }

    for (const { operation, fields } of CASES) {
      it(`${operation.name}: ${fields.map((f) => f.path.join('.')).join(', ')}`, async () => {
        const shared = await prepared(operation);
        let tried = 0;
        for (const field of fields) {
          const name = field.path.join('.');
          for (const value of OUTSIDE[field.kind]) {
            const input = withValue(
              { ...exampleOf(operation), ...PLACES[operation.name] },
              field.path,
              value,
            );
            if (!input) continue;
            const res = await call(
              app.baseUrl,
              operation.name,
              { ...input, ...pickIds(shared.input) },
              {
                token: shared.caller.token,
              },
            );
            const label = `${operation.name} ${name}=${value}`;
            assertNo5xx(res, label);
            // The shared patterns refuse at the edge (400); the older `...Minor` patterns of
            // invoicing and contractors allow 16 digits and leave the range to the domain's rule
            // (amount_overflow, payment_exceeds_balance): a 4xx either way, never stored.
            const detail = `${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            if (field.kind === 'otherMinor') assert.ok(res.status >= 400, detail);
            else assert.equal(res.status, 400, detail);
            tried += 1;
          }
          for (const value of INSIDE[field.kind]) {
            // A fresh record per accepted value: one that succeeds moves the revision.
            const fresh = await prepared(operation);
            const input = withValue(fresh.input, field.path, value);
            if (!input) continue;
            assertNo5xx(
              await call(app.baseUrl, operation.name, input, { token: fresh.caller.token }),
              `${operation.name} ${name}=${value}`,
            );
            tried += 1;
          }
        }
        assert.ok(tried > 0, `${operation.name}: its example has none of the fields`);
      });
    }

    it('afterwards every job runs clean and none is left failing', async () => {
      // Twice an hour apart: a retry that is due comes round again.
      await app.runJobs();
      app.clock.advance(60 * 60_000);
      await app.runJobs();
      const metric = await app.services.metrics.registry.getSingleMetricAsString(
        'accounting_job_failures_total',
      );
      const counted = metric.split('\n').filter((line) => line.startsWith('accounting_job_failures_total{'));
      assert.deepEqual(counted, [], 'no job counted a failure');
      const jobs = await app.database.db.kysely
        .selectFrom('books_jobs')
        .select(['kind', 'state', 'error_code', 'error_message'])
        .execute();
      assert.ok(jobs.length > 0, 'the operations made background work');
      const unfinished = jobs.filter(
        (job) =>
          job.state !== 'succeeded' &&
          !(
            job.state === 'failed' &&
            job.error_code !== 'attempts_exhausted' &&
            job.error_code !== 'timeout'
          ),
      );
      assert.deepEqual(unfinished, [], 'every books job finished (or failed for its input, not by breaking)');
      const receipts = await app.database.db.kysely
        .selectFrom('receipts')
        .select(['state', 'failure_code'])
        .where('state', 'in', ['new', 'processing'])
        .execute();
      assert.deepEqual(receipts, [], 'every receipt read finished');
    });
  });
}

/** The record-naming fields of a prepared input, laid over an example with one value changed. */
function pickIds(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([key]) => key === 'id' || key === 'expectedRevision' || key.endsWith('Id')),
  );
}
