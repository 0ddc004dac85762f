import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { principalIsActive } from '../../src/sessions/principals.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { runCli } from '../support/processes.ts';

/**
 * `accounting orgs suspend` stops a whole organization at once (its keys, its members' dashboard
 * sessions and its contractors' portal) and `orgs reinstate` brings it back; both are audited.
 * The CLI runs as a real child process on the test's database.
 */
for (const dialect of DIALECTS) {
  describe(`organization suspension from the command line (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const list = () => call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
    const cli = (args: string[]) => runCli([...args, '--org', admin.organizationId], app.database.env);

    it('refuses the keys and sessions of a suspended organization, and lets them back in once reinstated', async () => {
      assert.equal((await list()).status, 200);
      const { kysely } = app.services.db;
      assert.equal(await principalIsActive(kysely, 'member', admin.organizationId, admin.memberId), true);

      const suspend = await cli(['orgs', 'suspend']);
      assert.equal(suspend.code, 0, suspend.stderr);
      assert.match(suspend.stdout, /is suspended since \d{4}-/);
      const refused = await list();
      assert.equal(refused.status, 403);
      assert.equal((refused.body as { error: { code: string } }).error.code, 'organization_suspended');
      assert.equal(await principalIsActive(kysely, 'member', admin.organizationId, admin.memberId), false);

      const reinstate = await cli(['orgs', 'reinstate']);
      assert.equal(reinstate.code, 0, reinstate.stderr);
      assert.equal((await list()).status, 200);
      assert.equal(await principalIsActive(kysely, 'member', admin.organizationId, admin.memberId), true);

      const audit = await kysely
        .selectFrom('audit_log')
        .select(['operation', 'actor_type', 'transport', 'before_revision', 'after_revision'])
        .where('organization_id', '=', admin.organizationId)
        .where('record_type', '=', 'organization')
        .where('operation', 'in', ['admin.organizations.suspend', 'admin.organizations.reinstate'])
        .orderBy('created_at')
        .execute();
      assert.deepEqual(
        audit.map((row) => [row.operation, row.actor_type, row.transport]),
        [
          ['admin.organizations.suspend', 'operator', 'cli'],
          ['admin.organizations.reinstate', 'operator', 'cli'],
        ],
      );
      assert.equal(Number(audit[1]?.after_revision), Number(audit[0]?.after_revision) + 1);
    });

    it('names an unknown organization instead of failing', async () => {
      const result = await runCli(
        ['orgs', 'suspend', '--org', '01a2102a-da2b-7264-816d-32d78f5f7b20'],
        app.database.env,
      );
      assert.equal(result.code, 2);
      assert.match(result.stderr, /does not exist/);
    });
  });
}
