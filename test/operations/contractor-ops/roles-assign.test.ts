import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeContractor,
  makeRole,
  OTHER_ID,
  startWithMembers,
  storedContractor,
} from '../contractors/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractorOps.roles.assign (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const assign = caller(() => app, 'contractorOps.roles.assign');
    const stored = (id: string) => storedContractor(app, id);

    it('assigns an active role, then clears it; audits and emits each change', async () => {
      const role = await makeRole(app, admin);
      const c = await makeContractor(app, admin);
      const res = await assign(finance, { contractorId: c.id, expectedRevision: 1, jobRoleId: role.id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.job_role_id, role.id);
      assert.equal(res.data.revision, 2);
      assert.equal((await stored(c.id)).job_role_id, role.id);
      const cleared = await assign(admin, { contractorId: c.id, expectedRevision: 2, jobRoleId: null });
      assert.equal(cleared.data.job_role_id, null);
      assert.equal((await stored(c.id)).job_role_id, null);
      assert.deepEqual(
        (await auditFor(app, c.id)).slice(1).map((a) => [a.operation, a.before, a.after]),
        [
          ['contractorOps.roles.assign', 1, 2],
          ['contractorOps.roles.assign', 2, 3],
        ],
      );
      assert.deepEqual(
        (await eventsFor(app, c.id, 'contractor.role_assigned')).map((e) => e.data),
        [
          { jobRoleId: role.id, previousJobRoleId: null },
          { jobRoleId: null, previousJobRoleId: role.id },
        ],
      );
    });

    it('changes nothing when the contractor already has the role', async () => {
      const role = await makeRole(app, admin);
      const c = await makeContractor(app, admin, { jobRoleId: role.id });
      const res = await assign(admin, { contractorId: c.id, expectedRevision: 1, jobRoleId: role.id });
      assert.equal(res.status, 200);
      assert.equal(res.data.revision, 1);
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.role_assigned'), []);
    });

    it('refuses an inactive role with 409 job_role_inactive', async () => {
      const role = await makeRole(app, admin, { active: false });
      const c = await makeContractor(app, admin);
      const res = await assign(admin, { contractorId: c.id, expectedRevision: 1, jobRoleId: role.id });
      assertError(res, 409, 'job_role_inactive', 'jobRoleId');
      assert.equal((await stored(c.id)).job_role_id, null);
      // A role deactivated after assignment stays on the contractor.
      const later = await makeRole(app, admin);
      const d = await makeContractor(app, admin, { jobRoleId: later.id });
      await call(
        app.baseUrl,
        'contractorOps.roles.save',
        { id: later.id, expectedRevision: 1, active: false },
        { token: admin.token },
      );
      assert.equal((await stored(d.id)).job_role_id, later.id);
    });

    it('refuses bad input with the exact code and field', async () => {
      const c = await makeContractor(app, admin);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ contractorId: c.id, expectedRevision: 1 }, 'invalid_input', 'jobRoleId'],
        [{ contractorId: c.id, expectedRevision: 1, jobRoleId: 'nope' }, 'invalid_input', 'jobRoleId'],
        [{ contractorId: c.id, jobRoleId: null }, 'invalid_input', 'expectedRevision'],
        [{ expectedRevision: 1, jobRoleId: null }, 'invalid_input', 'contractorId'],
        [{ contractorId: c.id, id: c.id, expectedRevision: 1, jobRoleId: null }, 'unknown_field', 'id'],
      ];
      for (const [input, code, field] of cases) assertError(await assign(admin, input), 400, code, field);
      assert.equal((await stored(c.id)).revision, 1);
    });

    it('refuses a stale revision', async () => {
      const role = await makeRole(app, admin);
      const c = await makeContractor(app, admin);
      await call(
        app.baseUrl,
        'contractors.update',
        { id: c.id, expectedRevision: 1, displayName: 'Changed' },
        { token: admin.token },
      );
      const res = await assign(admin, { contractorId: c.id, expectedRevision: 1, jobRoleId: role.id });
      assertError(res, 409, 'revision_conflict', 'expectedRevision');
      assert.equal(res.error.current_revision, 2);
    });

    it('replays a retried request once', async () => {
      const role = await makeRole(app, admin);
      const c = await makeContractor(app, admin);
      const input = { contractorId: c.id, expectedRevision: 1, jobRoleId: role.id };
      const first = await assign(admin, input, 'assign-replay-0001');
      const again = await assign(admin, input, 'assign-replay-0001');
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await eventsFor(app, c.id, 'contractor.role_assigned')).length, 1);
    });

    it("answers 404 for another organization's contractor or role", async () => {
      const stranger = await createCaller(app);
      const theirRole = await makeRole(app, stranger);
      const theirContractor = await makeContractor(app, stranger);
      const mine = await makeContractor(app, admin);
      const myRole = await makeRole(app, admin);
      assertError(
        await assign(admin, { contractorId: mine.id, expectedRevision: 1, jobRoleId: theirRole.id }),
        404,
        'not_found',
        'jobRoleId',
      );
      assertError(
        await assign(admin, { contractorId: theirContractor.id, expectedRevision: 1, jobRoleId: myRole.id }),
        404,
        'not_found',
        'contractorId',
      );
      assertError(
        await assign(admin, { contractorId: OTHER_ID, expectedRevision: 1, jobRoleId: null }),
        404,
        'not_found',
        'contractorId',
      );
      assert.equal((await stored(mine.id)).job_role_id, null);
      assert.equal((await stored(theirContractor.id)).job_role_id, null);
    });

    it('refuses keys without accounting:write', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const c = await makeContractor(app, admin);
      assertError(
        await assign(reader, { contractorId: c.id, expectedRevision: 1, jobRoleId: null }),
        403,
        'insufficient_scope',
      );
    });
  });
}
