import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAY } from '../../src/lib/clock.ts';
import { type Caller, createCaller, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { inviteOk, makeContractor, startInvitationApp } from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractor portal_status tells what became of the invitations (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startInvitationApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const statusOf = async (id: string) => {
      const got = await call(app.baseUrl, 'contractors.get', { id }, { token: admin.token });
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const listed = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
      const items = listed.data.items as Array<{ id: string; portal_status: string }>;
      const inList = items.find((item) => item.id === id)?.portal_status;
      assert.equal(inList, got.data.portal_status, 'list and get agree');
      return got.data.portal_status;
    };

    it('not_invited, then invited, then invitation_revoked', async () => {
      const contractor = await makeContractor(app, admin);
      assert.equal(await statusOf(contractor.id), 'not_invited');
      const invitation = await inviteOk(app, admin, contractor.id);
      assert.equal(await statusOf(contractor.id), 'invited');
      const revoked = await call(
        app.baseUrl,
        'contractors.invitations.revoke',
        { id: invitation.id, expectedRevision: invitation.revision },
        { token: admin.token },
      );
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(await statusOf(contractor.id), 'invitation_revoked');
    });

    it('invitation_expired once the 7 days have passed, invited again after a new invite', async () => {
      const contractor = await makeContractor(app, admin);
      await inviteOk(app, admin, contractor.id);
      app.clock.advance(7 * DAY);
      assert.equal(await statusOf(contractor.id), 'invitation_expired');
      await inviteOk(app, admin, contractor.id);
      assert.equal(await statusOf(contractor.id), 'invited');
    });
  });
}
