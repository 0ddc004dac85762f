import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  contractorRow,
  countRows,
  invite,
  inviteOk,
  makeContractor,
  startInvitationApp,
} from '../../invitations/helpers.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`invitation access (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    let stranger: Caller;
    before(async () => {
      app = await startInvitationApp(dialect);
      admin = await createCaller(app);
      finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      stranger = await createCaller(app);
    });
    after(() => app.close());

    it('finance may invite, list, revoke and get the link like an administrator', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, finance, contractor.id);
      const list = await call(
        app.baseUrl,
        'contractors.invitations.list',
        { contractorId: contractor.id },
        { token: finance.token },
      );
      assert.equal(list.status, 200);
      const link = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: finance.token },
      );
      assert.equal(link.status, 200);
      const revoked = await call(
        app.baseUrl,
        'contractors.invitations.revoke',
        { id: invitation.id, expectedRevision: 1 },
        { token: finance.token },
      );
      assert.equal(revoked.status, 200);
      assert.equal(revoked.data.status, 'revoked');
    });

    it("another organization's contractor or invitation is 404 on every operation, and nothing changes", async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const before = await countRows(app, 'contractor_invitations', admin.organizationId);
      const asStranger = (operation: string, input: Record<string, unknown>) =>
        call(app.baseUrl, operation, input, { token: stranger.token });
      const invited = await asStranger('contractors.invite', { id: contractor.id, expectedRevision: 2 });
      assertError(invited, 404, 'not_found');
      assertError(
        await asStranger('contractors.invitations.list', { contractorId: contractor.id }),
        404,
        'not_found',
      );
      assertError(
        await asStranger('contractors.invitations.link', { contractorId: contractor.id }),
        404,
        'not_found',
      );
      assertError(
        await asStranger('contractors.invitations.revoke', { id: invitation.id, expectedRevision: 1 }),
        404,
        'not_found',
      );
      assert.equal(await countRows(app, 'contractor_invitations', admin.organizationId), before);
      assert.equal(await countRows(app, 'contractor_invitations', stranger.organizationId), 0);
      assert.equal((await contractorRow(app, contractor.id)).revision, 2);
    });

    it('a read-only key may list but not invite, revoke or get the link (403 insufficient_scope)', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const writerOnly = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:write'],
      });
      const list = await call(
        app.baseUrl,
        'contractors.invitations.list',
        { contractorId: contractor.id },
        { token: reader.token },
      );
      assert.equal(list.status, 200);
      const refusedInvite = await invite(app, reader, contractor.id);
      assertError(refusedInvite, 403, 'insufficient_scope');
      assert.deepEqual(refusedInvite.error.missing_scopes, ['accounting:write']);
      assertError(
        await call(
          app.baseUrl,
          'contractors.invitations.link',
          { contractorId: contractor.id },
          { token: reader.token },
        ),
        403,
        'insufficient_scope',
      );
      assertError(
        await call(
          app.baseUrl,
          'contractors.invitations.revoke',
          { id: invitation.id, expectedRevision: 1 },
          { token: reader.token },
        ),
        403,
        'insufficient_scope',
      );
      const writeOnlyInvite = await invite(app, writerOnly, contractor.id);
      assertError(writeOnlyInvite, 403, 'insufficient_scope');
      assert.deepEqual(writeOnlyInvite.error.missing_scopes, ['accounting:read']);
      assertError(
        await call(
          app.baseUrl,
          'contractors.invitations.list',
          { contractorId: contractor.id },
          { token: writerOnly.token },
        ),
        403,
        'insufficient_scope',
      );
      assert.equal((await contractorRow(app, contractor.id)).revision, 2, 'nothing changed');
    });

    it('refuses a missing credential before anything else', async () => {
      const res = await call(app.baseUrl, 'contractors.invite', { id: 'bogus' }, { token: null });
      assertError(res, 401, 'missing_credential');
    });
  });
}
