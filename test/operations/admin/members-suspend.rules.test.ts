import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../../src/contract/access.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { op } from './helpers.ts';

/**
 * Issue 15 part 3 through the API, the cases members-list.test.ts leaves out: a member's own
 * suspension ends every key of theirs at once (the one used included), and a key made by a
 * credential never outgrows it, even when made by a key the member made earlier.
 */
for (const dialect of DIALECTS) {
  describe(`admin rules: own suspension and key lineage (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('an admin suspending themselves loses every key at once, the calling one included', async () => {
      const first = await createCaller(app);
      const second = await createCaller(app, { organizationId: first.organizationId });
      const made = await op(app, second, 'admin.apiKeys.create', { scopes: ['accounting:read'] });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const other = { ...second, token: String(made.data.secret) };
      assert.equal((await op(app, other, 'contractors.list')).status, 200);
      const res = await op(app, second, 'admin.members.suspend', {
        id: second.memberId,
        expectedRevision: 1,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const caller of [second, other]) {
        assertError(await op(app, caller, 'contractors.list'), 401, 'invalid_credential');
      }
      const keys = await app.services.db.kysely
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('member_id', '=', second.memberId)
        .execute();
      assert.equal(keys.length, 2);
      assert.ok(keys.every((key) => key.revoked_at !== null));
      // The other admin is untouched.
      assert.equal((await op(app, first, 'admin.members.list')).status, 200);
    });

    it('a key made by a narrower key cannot get back the scopes its maker dropped', async () => {
      const admin = await createCaller(app, { scopes: ALL_SCOPES });
      const narrow = await op(app, admin, 'admin.apiKeys.create', {
        scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
      });
      assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
      const narrowCaller = { ...admin, token: String(narrow.data.secret) };
      const widened = await op(app, narrowCaller, 'admin.apiKeys.create', {
        scopes: ['accounting:read', 'mail:read'],
      });
      assertError(widened, 403, 'scope_not_held');
      assert.deepEqual(widened.error.missing_scopes, ['mail:read']);
      const same = await op(app, narrowCaller, 'admin.apiKeys.create', { scopes: ['accounting:read'] });
      assert.equal(same.status, 200, JSON.stringify(same.body));
    });
  });
}
