import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES, type Role } from '../../src/contract/access.ts';
import type { AnyOperation } from '../../src/operations/define.ts';
import { type Caller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import {
  API_OPERATIONS,
  addCaller,
  exampleOf,
  factoryFor,
  idFields,
  inputProperties,
  type MadeRecord,
  newOrganization,
} from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * "A row of another organization is not found, never forbidden": for every operation that takes a
 * record id, a record made in organization A is looked up from organization B. The same call from
 * A must then NOT fail the same way, which proves the id really named an existing record (a wrong
 * factory mapping fails here instead of passing vacuously).
 */

function roleFor(operation: AnyOperation): Role {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

for (const dialect of DIALECTS) {
  describe(`cross-organization ids (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    async function makeAll(
      fields: Array<{ field: string; resource: string | undefined }>,
      caller: Caller,
    ): Promise<Record<string, MadeRecord>> {
      const made: Record<string, MadeRecord> = {};
      for (const { field, resource } of fields) {
        const factory = resource ? factoryFor(resource) : undefined;
        if (factory) made[field] = await factory(app, caller);
      }
      return made;
    }

    /** A fresh pair of organizations per test, so records of one test never meet another's. */
    async function pair(role: Role): Promise<{ a: Caller; b: Caller }> {
      const a = await addCaller(app, await newOrganization(app, 'Org A'), { role, scopes: ALL_SCOPES });
      const b = await addCaller(app, await newOrganization(app, 'Org B'), { role, scopes: ALL_SCOPES });
      return { a, b };
    }

    for (const operation of API_OPERATIONS) {
      const name = operation.name;
      const fields = idFields(operation);
      for (const { field, resource } of fields) {
        const known = fields.every((f) => f.resource && factoryFor(f.resource));
        if (!resource || !known || operation.example === undefined) {
          const why =
            operation.example === undefined
              ? 'no example'
              : `no factory for ${
                  fields
                    .filter((f) => !f.resource)
                    .map((f) => f.field)
                    .join(', ') || field
                }`;
          it(`${name}: ${field} of another organization is 404`, { skip: why }, () => {});
          continue;
        }

        it(`${name}: ${field} of another organization is 404 (${resource} made in A, called from B)`, async () => {
          const { a, b } = await pair(roleFor(operation));
          // Every other id names a record of B itself, so the only foreign id is `field`.
          const records = await makeAll(fields, a);
          const own = await makeAll(
            fields.filter((f) => f.field !== field),
            b,
          );
          const inputFor = (ids: Record<string, MadeRecord>) => {
            const input: Record<string, unknown> = { ...exampleOf(operation) };
            for (const [name, record] of Object.entries(ids)) input[name] = record.id;
            const main = ids.id;
            if (main?.revision && 'expectedRevision' in inputProperties(operation)) {
              input.expectedRevision = main.revision;
            }
            return input;
          };
          const fromB = await call(
            app.baseUrl,
            name,
            inputFor({ ...own, [field]: records[field] as MadeRecord }),
            {
              token: b.token,
            },
          );
          assertError(fromB, 404, 'not_found', `${name} from B`);
          if (fromB.error.field !== undefined) assert.equal(fromB.error.field, field);
          const fromA = await call(app.baseUrl, name, inputFor(records), { token: a.token });
          assert.ok(
            !(fromA.status === 404 && fromA.error.message === fromB.error.message),
            `${name}: the ${resource} record is not found in its own organization either; map ${field} to the right resource in test/support/factories.ts (${JSON.stringify(fromA.body).slice(0, 200)})`,
          );
        });

        it(`${name}: an unknown ${field} is 404`, async () => {
          const { a } = await pair(roleFor(operation));
          const input: Record<string, unknown> = { ...exampleOf(operation) };
          const own = await makeAll(
            fields.filter((f) => f.field !== field),
            a,
          );
          for (const [name, record] of Object.entries(own)) input[name] = record.id;
          input[field] = randomUUID();
          assertError(await call(app.baseUrl, name, input, { token: a.token }), 404, 'not_found', name);
        });
      }
    }
  });
}
