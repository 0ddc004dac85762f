import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { assertError, eventsFor, makeContractor, makeRole, OTHER_ID } from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.create, get and list with roles (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('creates with an active role and emits contractor.created', async () => {
      const role = await makeRole(app, admin);
      const c = await makeContractor(app, admin, {
        jobRoleId: role.id,
        country: 'CA',
        email: 'Mixed@Example.com',
      });
      assert.equal(c.job_role_id, role.id);
      assert.equal(c.portal_status, 'not_invited');
      assert.deepEqual(await eventsFor(app, c.id), [
        {
          type: 'contractor.created',
          data: {
            displayName: c.display_name,
            email: 'Mixed@Example.com',
            country: 'CA',
            jobRoleId: role.id,
          },
        },
      ]);
      const dup = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Dup', legalName: 'Dup', email: 'mixed@example.COM' },
        { token: admin.token },
      );
      assertError(dup, 409, 'email_taken', 'email');
    });

    it("refuses an inactive role (409) and another organization's role (404)", async () => {
      const inactive = await makeRole(app, admin, { active: false });
      const base = { displayName: 'R', legalName: 'R', email: 'r@example.com' };
      assertError(
        await call(
          app.baseUrl,
          'contractors.create',
          { ...base, jobRoleId: inactive.id },
          { token: admin.token },
        ),
        409,
        'job_role_inactive',
        'jobRoleId',
      );
      const theirs = await makeRole(app, await createCaller(app));
      assertError(
        await call(
          app.baseUrl,
          'contractors.create',
          { ...base, jobRoleId: theirs.id },
          { token: admin.token },
        ),
        404,
        'not_found',
        'jobRoleId',
      );
    });

    it('gets a contractor of the organization only', async () => {
      const c = await makeContractor(app, admin);
      const got = await call(
        app.baseUrl,
        'contractors.get',
        { id: c.id },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(got.status, 200);
      assert.equal(got.data.id, c.id);
      const stranger = await createCaller(app);
      assertError(
        await call(app.baseUrl, 'contractors.get', { id: c.id }, { token: stranger.token }),
        404,
        'not_found',
        'id',
      );
      assertError(
        await call(app.baseUrl, 'contractors.get', { id: OTHER_ID }, { token: admin.token }),
        404,
        'not_found',
      );
    });

    it('lists with the name filter after an update', async () => {
      const c = await makeContractor(app, admin, { displayName: 'Zed', legalName: 'Zed Zulu' });
      await call(
        app.baseUrl,
        'contractors.update',
        { id: c.id, expectedRevision: 1, legalName: 'Renamed Quokka' },
        { token: admin.token },
      );
      const res = await call(app.baseUrl, 'contractors.list', { query: 'quokka' }, { token: admin.token });
      assert.deepEqual(
        (res.data.items as Array<{ id: string; legal_name: string; revision: number }>).map((i) => [
          i.id,
          i.legal_name,
          i.revision,
        ]),
        [[c.id, 'Renamed Quokka', 2]],
      );
    });
  });
}
