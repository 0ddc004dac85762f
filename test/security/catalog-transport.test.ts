import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES, type Role } from '../../src/contract/access.ts';
import { type AnyOperation, acceptsGet } from '../../src/operations/define.ts';
import { type Caller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertCommonHeaders, assertError } from '../support/expect.ts';
import { API_OPERATIONS, addCaller, exampleOf, newOrganization } from '../support/factories.ts';
import { call, freshKey, openApiCheckedFetch } from '../support/http.ts';

/**
 * Transport rules for every operation of the catalog, with a caller that is allowed to call it:
 * 415, 413, malformed JSON, unknown fields and query parameters, and the operation's own example
 * never failing with a 5xx or an access error.
 */

const DEFAULT_MAX_BODY = 1024 * 1024;
const IDEMPOTENCY_MIN = 8;

function allowedRole(operation: AnyOperation): Role {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

/** Scalars only: what a query string can carry. */
function queryable(input: Record<string, unknown>): boolean {
  return Object.values(input).every((value) => ['string', 'number', 'boolean'].includes(typeof value));
}

for (const dialect of DIALECTS) {
  describe(`catalog transport (${dialect})`, () => {
    let app: TestApp;
    const callers = new Map<Role, Caller>();
    before(async () => {
      app = await startTestApp(dialect);
      const organizationId = await newOrganization(app, 'Transport org');
      for (const role of ['admin', 'finance'] as const) {
        callers.set(role, await addCaller(app, organizationId, { role, scopes: ALL_SCOPES }));
      }
    });
    after(() => app?.close());

    const tokenFor = (operation: AnyOperation): string => {
      const caller = callers.get(allowedRole(operation));
      assert.ok(caller);
      return caller.token;
    };

    for (const operation of API_OPERATIONS) {
      const name = operation.name;
      // Without an example (the catalog test reports that) a missing required field hides the rest.
      const needsExample = { skip: operation.example === undefined ? 'the operation has no example' : false };

      it(`${name}: 415 for a body that is not JSON, 400 invalid_json for broken or non-object JSON`, async () => {
        const token = tokenFor(operation);
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
          const res = await call(app.baseUrl, name, {}, { token, headers: { 'content-type': type } });
          assertError(res, 415, 'unsupported_media_type', `${name} ${type}`);
        }
        for (const rawBody of ['{"a":', '[]', '"text"', '42', 'null']) {
          const res = await call(app.baseUrl, name, {}, { token, rawBody });
          assertError(res, 400, 'invalid_json', `${name} body ${rawBody}`);
        }
      });

      it(`${name}: 413 for a body over ${operation.maxBodyBytes ?? DEFAULT_MAX_BODY} bytes`, async () => {
        const limit = operation.maxBodyBytes ?? DEFAULT_MAX_BODY;
        const filler = 'x'.repeat(limit);
        const rawBody = JSON.stringify({ ...exampleOf(operation), filler });
        const res = await call(app.baseUrl, name, {}, { token: tokenFor(operation), rawBody });
        assertError(res, 413, 'payload_too_large', name);
      });

      it(`${name}: POST refuses a query string with 400 unknown_parameter`, async () => {
        const url = `${app.baseUrl}/api/v1/accounting/${name}?limit=1`;
        const res = await openApiCheckedFetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokenFor(operation)}`, 'content-type': 'application/json' },
          body: '{}',
        });
        assert.equal(res.status, 400);
        const body = (await res.json()) as { error: { code: string; field: string } };
        assert.deepEqual([body.error.code, body.error.field], ['unknown_parameter', 'limit']);
      });

      it(`${name}: 400 unknown_field for a field the schema does not have`, needsExample, async () => {
        const input = { ...exampleOf(operation), notAFieldOfThisOperation: 1 };
        const res = await call(app.baseUrl, name, input, { token: tokenFor(operation) });
        assertError(res, 400, 'unknown_field', name);
        assert.equal(res.error.field, 'notAFieldOfThisOperation');
      });

      const rules = operation.mutation;
      if (rules) {
        it(
          `${name}: idempotency key required, body key ${IDEMPOTENCY_MIN}-${rules.idempotencyKeyMax} characters`,
          needsExample,
          async () => {
            const token = tokenFor(operation);
            const { idempotencyKey: _key, ...input } = exampleOf(operation);
            const none = await call(app.baseUrl, name, input, { token, idempotencyKey: null });
            assert.equal(none.status, 400, JSON.stringify(none.body));
            assert.ok(['idempotency_key_required', 'invalid_input'].includes(none.error.code));
            assert.equal(none.error.field, 'idempotencyKey');
            for (const length of [IDEMPOTENCY_MIN - 1, rules.idempotencyKeyMax + 1]) {
              const res = await call(
                app.baseUrl,
                name,
                { ...input, idempotencyKey: 'k'.repeat(length) },
                { token },
              );
              assertError(res, 400, 'invalid_input', `${name} body key of ${length}`);
              assert.equal(res.error.field, 'idempotencyKey');
            }
            for (const length of [IDEMPOTENCY_MIN, rules.idempotencyKeyMax]) {
              const key = `${freshKey()}`.padEnd(length, 'k').slice(-length);
              const res = await call(app.baseUrl, name, { ...input, idempotencyKey: key }, { token });
              assert.notEqual(
                res.error?.field,
                'idempotencyKey',
                `${name} body key of ${length}: ${JSON.stringify(res.body)}`,
              );
            }
          },
        );
      }

      if (acceptsGet(operation)) {
        it(`${name}: GET refuses unknown query parameters with 400 unknown_parameter`, async () => {
          const res = await call(
            app.baseUrl,
            name,
            { notAParameter: '1' },
            { token: tokenFor(operation), method: 'GET' },
          );
          assertError(res, 400, 'unknown_parameter', name);
          assert.equal(res.error.field, 'notAParameter');
        });
      }

      it(
        `${name}: the example input passes the pipeline (no access, transport or 5xx error)`,
        needsExample,
        async () => {
          const input = exampleOf(operation);
          const attempts = [
            await call(app.baseUrl, name, input, { token: tokenFor(operation) }),
            ...(acceptsGet(operation) && queryable(input)
              ? [await call(app.baseUrl, name, input, { token: tokenFor(operation), method: 'GET' })]
              : []),
          ];
          for (const res of attempts) {
            const label = `${name} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            assertCommonHeaders(res, name);
            assert.ok(res.status < 500, label);
            assert.ok(![401, 403, 405, 413, 415].includes(res.status), label);
            const code = res.error?.code;
            assert.ok(
              !['invalid_json', 'unknown_field', 'unknown_parameter', 'idempotency_key_required'].includes(
                code ?? '',
              ),
              label,
            );
          }
        },
      );
    }
  });
}
