import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNTING_SCOPES, MAIL_SCOPES } from '../../src/contract/access.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { mcpToolName } from '../../src/operations/define.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { exampleOf } from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * Contract, Authentication 3: default accounting scopes never grant company-mail access. Driven
 * by the catalog: every operation of the mail area (today's and any added later) needs a mail
 * scope, and a credential holding every accounting scope is refused each of them, before
 * validation and before anything is written.
 */

const MAIL_OPERATIONS = OPERATIONS.filter((operation) => operation.name.startsWith('mail.'));
const isMailScope = (scope: string) => (MAIL_SCOPES as readonly string[]).includes(scope);

it('the catalog has mail operations, and each needs a mail scope', () => {
  assert.ok(MAIL_OPERATIONS.length >= 9, MAIL_OPERATIONS.map((o) => o.name).join());
  for (const operation of MAIL_OPERATIONS) {
    assert.ok(operation.access.scopes.some(isMailScope), `${operation.name} needs a mail scope`);
  }
  // And no operation outside the area is reachable with mail scopes alone: the areas stay apart.
  for (const operation of OPERATIONS.filter((o) => !o.name.startsWith('mail.'))) {
    assert.ok(!operation.access.scopes.some(isMailScope), `${operation.name} uses a mail scope`);
  }
});

it('no MCP tool description of a mail operation carries an example sender or subject', () => {
  for (const operation of MAIL_OPERATIONS) {
    if (mcpToolName(operation) === undefined) continue;
    const example = JSON.stringify(operation.example ?? {});
    for (const field of ['sender', 'subject']) assert.ok(!example.includes(`"${field}"`), operation.name);
  }
});

for (const dialect of DIALECTS) {
  describe(`accounting-only credentials never reach company mail (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    for (const operation of MAIL_OPERATIONS) {
      it(`${operation.name}: 403 insufficient_scope for every role with all accounting scopes`, async () => {
        for (const role of ['admin', 'finance'] as const) {
          const caller = await createCaller(app, { role, scopes: ACCOUNTING_SCOPES });
          const res = await call(app.baseUrl, operation.name, exampleOf(operation), { token: caller.token });
          assertError(res, 403, 'insufficient_scope', `${operation.name} as ${role}`);
          assert.deepEqual(
            [...(res.error.missing_scopes as string[])].sort(),
            operation.access.scopes.filter(isMailScope).sort(),
          );
          const written = await app.services.db.kysely
            .selectFrom('mail_items')
            .select('id')
            .where('organization_id', '=', caller.organizationId)
            .execute();
          assert.deepEqual(written, []);
        }
      });
    }
  });
}
