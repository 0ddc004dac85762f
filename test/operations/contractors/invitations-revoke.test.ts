import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asJson } from '../../../src/db/values.ts';
import { DAY, HOUR, MINUTE } from '../../../src/lib/clock.ts';
import {
  contractorRow,
  getPage,
  inviteOk,
  linkOf,
  listOf,
  makeContractor,
  postAccept,
  startInvitationApp,
} from '../../invitations/helpers.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`invitations revoke, link, list and expiry (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startInvitationApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const revoke = (id: string, expectedRevision: number, options: { idempotencyKey?: string } = {}) =>
      call(
        app.baseUrl,
        'contractors.invitations.revoke',
        { id, expectedRevision },
        { token: admin.token, ...options },
      );

    it('revokes an open invitation: its link stops working, audited, event recorded', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      assert.equal((await getPage(link)).status, 200);
      app.clock.advance(MINUTE);
      const res = await revoke(invitation.id, 1);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'revoked');
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.revoked_at, app.clock.now().toISOString());

      const page = await getPage(link);
      assert.equal(page.status, 410);
      assert.match(page.html, /withdrawn/);
      const accept = await postAccept(link);
      assert.equal(accept.status, 410);
      const row = await app.services.db.kysely
        .selectFrom('contractors')
        .select(['joined_at', 'revision'])
        .where('id', '=', contractor.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { joined_at: null, revision: 2 });

      const linkRes = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: admin.token },
      );
      assertError(linkRes, 404, 'no_open_invitation');
      assert.equal(linkRes.error.latest_status, 'revoked');

      const { kysely } = app.services.db;
      const audit = await auditRows(app, { requestId: res.headers.get('x-request-id') ?? '' });
      assert.deepEqual(
        audit.map((a) => [a.record_type, a.record_id, a.before_revision, a.after_revision]),
        [['invitation', invitation.id, 1, 2]],
      );
      const event = await kysely
        .selectFrom('events')
        .selectAll()
        .where('subject_id', '=', invitation.id)
        .where('type', '=', 'invitation.revoked')
        .executeTakeFirstOrThrow();
      assert.deepEqual(asJson(event.data), {
        contractorId: contractor.id,
        email: contractor.email,
        revokedAt: Math.floor(app.clock.now().getTime() / 1000),
      });
    });

    it('an email change revokes the open invitation sent to the old address', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      const newEmail = `moved-${contractor.id.slice(-8)}@example.com`;
      const res = await call(
        app.baseUrl,
        'contractors.email.update',
        {
          id: contractor.id,
          expectedRevision: (await contractorRow(app, contractor.id)).revision,
          email: newEmail,
        },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await postAccept(link)).status, 410);
      const [listed] = await listOf(app, admin, contractor.id);
      assert.deepEqual([listed?.id, listed?.status], [invitation.id, 'revoked']);
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select(['type', 'subject_id'])
        .where('request_id', '=', res.headers.get('x-request-id') ?? '')
        .orderBy('type')
        .execute();
      assert.deepEqual(
        events.map((event) => [event.type, event.subject_id]),
        [
          ['contractor.email_changed', contractor.id],
          ['invitation.revoked', invitation.id],
        ],
      );
      // The new address can be invited at once.
      const again = await inviteOk(app, admin, contractor.id);
      assert.equal(again.email, newEmail);
    });

    it('refuses to revoke twice (409 invitation_not_open) and on a stale revision (409 revision_conflict)', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      assertError(await revoke(invitation.id, 2), 409, 'revision_conflict');
      assert.equal((await revoke(invitation.id, 1)).status, 200);
      const again = await revoke(invitation.id, 2);
      assertError(again, 409, 'invitation_not_open');
      assert.equal(again.error.status, 'revoked');
      const stale = await revoke(invitation.id, 1);
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
    });

    it('refuses to revoke a replaced or accepted invitation', async () => {
      const contractor = await makeContractor(app, admin);
      const first = await inviteOk(app, admin, contractor.id);
      await inviteOk(app, admin, contractor.id);
      const replaced = await revoke(first.id, 2);
      assertError(replaced, 409, 'invitation_not_open');
      assert.equal(replaced.error.status, 'replaced');

      const link = await linkOf(app, admin, contractor.id);
      assert.equal((await postAccept(link)).status, 303);
      const [accepted] = await listOf(app, admin, contractor.id);
      assert.equal(accepted?.status, 'accepted');
      const res = await revoke(accepted?.id ?? '', accepted?.revision ?? 0);
      assertError(res, 409, 'invitation_not_open');
      assert.equal(res.error.status, 'accepted');
    });

    it('replays a revoke with the same key', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const first = await revoke(invitation.id, 1, { idempotencyKey: 'revoke-replay-1' });
      const again = await revoke(invitation.id, 1, { idempotencyKey: 'revoke-replay-1' });
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
    });

    it('expires after exactly 7 days: status, link, page, revoke and a new invite all agree', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      app.clock.advance(7 * DAY - 1);
      assert.equal((await listOf(app, admin, contractor.id))[0]?.status, 'open');
      assert.equal((await getPage(link)).status, 200);
      app.clock.advance(1);
      const [expired] = await listOf(app, admin, contractor.id);
      assert.equal(expired?.status, 'expired');
      assert.equal(expired?.revision, 1, 'expiry is not a change');
      const page = await getPage(link);
      assert.equal(page.status, 410);
      assert.match(page.html, /expired/);
      assert.equal((await postAccept(link)).status, 410);
      const linkRes = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: admin.token },
      );
      assertError(linkRes, 404, 'no_open_invitation');
      assert.equal(linkRes.error.latest_status, 'expired');
      const revoked = await revoke(invitation.id, 1);
      assertError(revoked, 409, 'invitation_not_open');
      assert.equal(revoked.error.status, 'expired');

      // A new invitation closes the expired one as expired (it was never replaced while open).
      const fresh = await inviteOk(app, admin, contractor.id);
      const items = await listOf(app, admin, contractor.id);
      assert.deepEqual(
        items.map((i) => [i.id, i.status, i.replaced_at]),
        [
          [fresh.id, 'open', null],
          [invitation.id, 'expired', null],
        ],
      );
      assert.equal((await getPage(await linkOf(app, admin, contractor.id))).status, 200);
    });

    it('link: returns the same link as long as the invitation is open; 409 when none was sent', async () => {
      const contractor = await makeContractor(app, admin);
      const none = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: admin.token },
      );
      assertError(none, 404, 'no_open_invitation');
      assert.equal(none.error.latest_status, null);
      const invitation = await inviteOk(app, admin, contractor.id);
      const res = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: admin.token },
      );
      assert.equal(res.status, 200);
      assert.equal(res.data.invitation_id, invitation.id);
      assert.equal(res.data.expires_at, invitation.expires_at);
      assert.match(String(res.data.url), new RegExp(`^${app.baseUrl}/portal/invitations/[A-Za-z0-9_-]{43}$`));
      app.clock.advance(HOUR);
      const viaGet = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: contractor.id },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(viaGet.data.url, res.data.url);
      const unknown = await call(
        app.baseUrl,
        'contractors.invitations.link',
        { contractorId: '01900000-0000-7000-8000-000000000099' },
        { token: admin.token },
      );
      assertError(unknown, 404, 'not_found');
      assert.equal(unknown.error.field, 'contractorId');
    });

    it('list: newest first with limit/offset, GET accepted, 404 for an unknown contractor', async () => {
      const contractor = await makeContractor(app, admin);
      const made: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        made.push((await inviteOk(app, admin, contractor.id)).id);
        app.clock.advance(MINUTE);
      }
      const page1 = await call(
        app.baseUrl,
        'contractors.invitations.list',
        { contractorId: contractor.id, limit: 2 },
        { token: admin.token },
      );
      assert.deepEqual(
        (page1.data.items as Array<{ id: string }>).map((i) => i.id),
        [made[2], made[1]],
      );
      assert.equal(page1.data.nextOffset, 2);
      const page2 = await call(
        app.baseUrl,
        'contractors.invitations.list',
        { contractorId: contractor.id, limit: 2, offset: 2 },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(page2.status, 200);
      assert.deepEqual(
        (page2.data.items as Array<{ id: string }>).map((i) => i.id),
        [made[0]],
      );
      assert.equal(page2.data.nextOffset, null);
      const missing = await call(app.baseUrl, 'contractors.invitations.list', {}, { token: admin.token });
      assertError(missing, 400, 'invalid_input');
      const unknown = await call(
        app.baseUrl,
        'contractors.invitations.list',
        { contractorId: '01900000-0000-7000-8000-000000000099' },
        { token: admin.token },
      );
      assertError(unknown, 404, 'not_found');
    });
  });
}
