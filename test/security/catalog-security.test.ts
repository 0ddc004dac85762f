import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES, ROLES } from '../../src/contract/access.ts';
import { generateApiKey } from '../../src/contract/api-key-format.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { type AnyOperation, acceptsGet } from '../../src/operations/define.ts';
import { validateInput } from '../../src/operations/validation.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import {
  dashboardOnly,
  exampleOf,
  inputProperties,
  type SecurityCallers,
  securityCallers,
} from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * The shared security tests of the guide: generated from the catalog, so every operation another
 * area adds is covered without writing a line here. Each call sends the operation's own example
 * input, so a refusal can only come from the check under test, never from validation.
 */

const COUNTED_TABLES = ['audit_log', 'events', 'idempotency_keys', 'mail_outbox'] as const;

async function rowCounts(app: TestApp, organizationId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const row = await app.services.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** A value of the field's JSON type, for fields the example leaves out. */
function sampleValue(schema: unknown): unknown {
  const node = schema as { type?: unknown; anyOf?: unknown[]; default?: unknown };
  if (node.default !== undefined) return node.default;
  if (node.anyOf?.[0]) return sampleValue(node.anyOf[0]);
  if (node.type === 'boolean') return true;
  if (node.type === 'integer' || node.type === 'number') return 1;
  if (node.type === 'array') return [];
  return 'x';
}

it('every operation has an example that its own input schema accepts', () => {
  assert.ok(OPERATIONS.length > 0);
  const missing = OPERATIONS.filter((operation) => operation.example === undefined).map((o) => o.name);
  assert.deepEqual(missing, [], `operations without an example: ${missing.join(', ')}`);
  for (const operation of OPERATIONS) {
    assert.doesNotThrow(() => validateInput(operation.input, operation.example), operation.name);
  }
});

for (const dialect of DIALECTS) {
  describe(`catalog security (${dialect})`, () => {
    let app: TestApp;
    let callers: SecurityCallers;
    let beforeCounts: Record<string, number>;
    before(async () => {
      app = await startTestApp(dialect);
      callers = await securityCallers(app);
      beforeCounts = await rowCounts(app, callers.organizationId);
    });
    after(() => app?.close());

    const send = (operation: AnyOperation, token: string | null, headers: Record<string, string> = {}) =>
      call(app.baseUrl, operation.name, exampleOf(operation), { token, headers });

    for (const operation of OPERATIONS) {
      const name = operation.name;

      it(`${name}: 401 without a valid credential`, async () => {
        assertError(await send(operation, null), 401, 'missing_credential', `${name} no credential`);
        const basic = await send(operation, null, { authorization: 'Basic dXNlcjpwYXNz' });
        assertError(basic, 401, 'missing_credential', `${name} Basic`);
        for (const token of ['ak_malformed', 'not-a-key', generateApiKey().token, callers.revokedToken]) {
          assertError(
            await send(operation, token),
            401,
            'invalid_credential',
            `${name} ${token.slice(0, 12)}`,
          );
        }
      });

      it(`${name}: 403 for another organization's header and for inactive members`, async () => {
        const admin = callers.full.admin.token;
        for (const value of [callers.otherOrganizationId, 'not-an-organization']) {
          const res = await send(operation, admin, { 'x-accounting-organization': value });
          assertError(res, 403, 'organization_mismatch', `${name} X-Accounting-Organization ${value}`);
        }
        assertError(
          await send(operation, callers.suspended.token),
          403,
          'membership_inactive',
          `${name} suspended`,
        );
        assertError(
          await send(operation, callers.removed.token),
          403,
          'membership_inactive',
          `${name} removed`,
        );
      });

      if (dashboardOnly(operation)) {
        it(`${name}: 403 dashboard_only for every API credential`, async () => {
          for (const role of ROLES) {
            assertError(
              await send(operation, callers.full[role].token),
              403,
              'dashboard_only',
              `${name} ${role}`,
            );
            for (const scope of ALL_SCOPES) {
              const res = await send(operation, callers.withoutScope[role][scope].token);
              assertError(res, 403, 'dashboard_only', `${name} ${role} without ${scope}`);
            }
          }
        });
      } else {
        const roles = operation.access.roles as readonly string[];
        it(`${name}: 403 insufficient_scope for each required scope missing (${operation.access.scopes.join(', ')})`, async () => {
          assert.ok(operation.access.scopes.length > 0, `${name} requires no scope`);
          for (const role of ROLES) {
            for (const scope of operation.access.scopes) {
              const res = await send(operation, callers.withoutScope[role][scope].token);
              assertError(res, 403, 'insufficient_scope', `${name} ${role} without ${scope}`);
              assert.deepEqual(res.error.missing_scopes, [scope]);
            }
          }
        });
        const refused = ROLES.filter((role) => !roles.includes(role));
        it(`${name}: 403 role_not_allowed for roles outside ${roles.join(', ')} (${refused.join(', ') || 'none'})`, async () => {
          for (const role of refused) {
            assertError(
              await send(operation, callers.full[role].token),
              403,
              'role_not_allowed',
              `${name} ${role}`,
            );
          }
        });
        for (const [field, fieldRoles] of Object.entries(operation.access.restrictedFields ?? {})) {
          const allowedHere = ROLES.filter((role) => roles.includes(role) && !fieldRoles.includes(role));
          it(`${name}: 403 role_not_allowed when ${allowedHere.join(', ') || 'no role'} sets ${field}`, async () => {
            const input = exampleOf(operation);
            input[field] ??= sampleValue(inputProperties(operation)[field]);
            for (const role of allowedHere) {
              const res = await call(app.baseUrl, name, input, { token: callers.full[role].token });
              assertError(res, 403, 'role_not_allowed', `${name} ${role} setting ${field}`);
              assert.equal(res.error.field, field);
            }
          });
        }
      }

      it(`${name}: methods (${acceptsGet(operation) ? 'GET and POST' : 'POST only, GET is 405'})`, async () => {
        const token = callers.full.admin.token;
        if (!acceptsGet(operation)) {
          for (const who of [token, null]) {
            const res = await call(app.baseUrl, name, {}, { token: who, method: 'GET' });
            assertError(res, 405, 'method_not_allowed', `${name} GET`);
          }
        }
        const del = await call(app.baseUrl, name, {}, { token, method: 'DELETE' });
        assertError(del, 405, 'method_not_allowed', `${name} DELETE`);
      });
    }

    it('refused calls changed nothing in the organization', async () => {
      assert.deepEqual(await rowCounts(app, callers.organizationId), beforeCounts);
    });
  });
}
