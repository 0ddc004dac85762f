import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ALL_SCOPES, type Role } from '../../src/contract/access.ts';
import { MAX_SAFE } from '../../src/contract/formats.ts';
import { type AnyOperation, acceptsGet } from '../../src/operations/define.ts';
import { type Caller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertCommonHeaders } from '../support/expect.ts';
import {
  API_OPERATIONS,
  addCaller,
  exampleOf,
  inputProperties,
  newOrganization,
} from '../support/factories.ts';
import { type ApiResponse, call } from '../support/http.ts';

/**
 * Bad input never makes a 5xx: for every operation, fast-check takes the example input and
 * drops fields, replaces them with hostile values of any type and adds unknown ones, over POST
 * bodies and (for reads) query strings. Every answer is a 2xx or a 4xx with the one error body.
 */

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 12);

const hostile = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    MAX_SAFE + 1,
    1e308,
    '',
    ' ',
    '\u0000',
    '9007199254740993',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    "'; drop table contractors; --",
    '%_\\',
    '__proto__',
    'x'.repeat(5000),
    '2026-02-30',
    // Extreme dates and amounts (issue 27): outside the service's range, its edges, far beyond.
    '0000-01-01',
    '0001-01-01',
    '1899-12-31',
    '1900-01-01',
    '2999-12-31',
    '3000-01-01',
    '9999-12-31',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2999-12-31T23:59:59+14:00',
    '9007199254740991',
    '-9007199254740991',
    '9007199254740992',
    '999999999999999999',
    '-999999999999999999',
    'https://127.0.0.1/hook',
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 25 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

function mutatedInput(operation: AnyOperation) {
  const example = exampleOf(operation);
  const names = [...new Set([...Object.keys(inputProperties(operation)), ...Object.keys(example)])];
  const perField = names.map((name) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant({ name, keep: true as const }) },
      { weight: 1, arbitrary: fc.constant({ name, drop: true as const }) },
      { weight: 3, arbitrary: hostile.map((value) => ({ name, value })) },
    ),
  );
  return fc
    .tuple(
      fc.tuple(...perField),
      fc.option(fc.tuple(fc.string({ maxLength: 12 }), hostile), { nil: undefined }),
    )
    .map(([fields, extra]) => {
      const input: Record<string, unknown> = {};
      for (const field of fields) {
        if ('value' in field) input[field.name] = field.value;
        else if ('keep' in field && field.name in example) input[field.name] = example[field.name];
      }
      if (extra) input[extra[0]] = extra[1];
      return input;
    });
}

function assertNo5xx(res: ApiResponse, label: string): void {
  const text = `${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  assert.ok(res.status < 500, text);
  assertCommonHeaders(res, label);
  if (res.status >= 400) {
    assert.equal(typeof res.error?.code, 'string', text);
    assert.equal(res.error.request_id, res.headers.get('x-request-id'), text);
  }
}

function roleFor(operation: AnyOperation): Role {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

for (const dialect of DIALECTS) {
  describe(`fuzzed input never makes a 5xx (${dialect})`, () => {
    let app: TestApp;
    const callers = new Map<Role, Caller>();
    before(async () => {
      app = await startTestApp(dialect);
      const organizationId = await newOrganization(app, 'Fuzz org');
      for (const role of ['admin', 'finance'] as const) {
        callers.set(role, await addCaller(app, organizationId, { role, scopes: ALL_SCOPES }));
      }
    });
    after(() => app?.close());

    for (const operation of API_OPERATIONS) {
      it(`${operation.name}`, async () => {
        const token = callers.get(roleFor(operation))?.token ?? '';
        await fc.assert(
          fc.asyncProperty(mutatedInput(operation), async (input) => {
            assertNo5xx(await call(app.baseUrl, operation.name, input, { token }), `${operation.name} POST`);
            if (acceptsGet(operation)) {
              const query = Object.fromEntries(
                Object.entries(input).map(([key, value]) => [
                  key,
                  typeof value === 'string' ? value : JSON.stringify(value),
                ]),
              );
              const res = await call(app.baseUrl, operation.name, query, { token, method: 'GET' });
              assertNo5xx(res, `${operation.name} GET`);
            }
          }),
          { numRuns: RUNS },
        );
      });
    }
  });
}
