import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asJson } from '../../../src/db/values.ts';
import { DAY, HOUR, SECOND } from '../../../src/lib/clock.ts';
import {
  contractorRow,
  countRows,
  getPage,
  invite,
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
  describe(`contractors.invite (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startInvitationApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('opens an invitation valid 7 days, bumps the contractor revision, audits, records the event and keeps the mail without SMTP', async () => {
      const contractor = await makeContractor(app, admin, { displayName: 'Grace Hopper' });
      const now = app.clock.now();
      const res = await invite(app, admin, contractor.id, { expectedRevision: 1 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const invitation = res.data;
      assert.deepEqual(
        {
          contractor_id: invitation.contractor_id,
          email: invitation.email,
          status: invitation.status,
          expires_at: invitation.expires_at,
          accepted_at: invitation.accepted_at,
          revoked_at: invitation.revoked_at,
          replaced_at: invitation.replaced_at,
          revision: invitation.revision,
          created_at: invitation.created_at,
        },
        {
          contractor_id: contractor.id,
          email: contractor.email,
          status: 'open',
          expires_at: new Date(now.getTime() + 7 * DAY).toISOString(),
          accepted_at: null,
          revoked_at: null,
          replaced_at: null,
          revision: 1,
          created_at: now.toISOString(),
        },
      );

      const contractorAfter = await contractorRow(app, contractor.id);
      assert.equal(contractorAfter.revision, 2);
      assert.equal(contractorAfter.joined_at, null);
      const got = await call(app.baseUrl, 'contractors.get', { id: contractor.id }, { token: admin.token });
      assert.equal(got.data.revision, 2);

      const { kysely } = app.services.db;
      const row = await kysely
        .selectFrom('contractor_invitations')
        .selectAll()
        .where('id', '=', String(invitation.id))
        .executeTakeFirstOrThrow();
      assert.match(row.token_hash, /^[0-9a-f]{64}$/);
      assert.equal(row.created_by, admin.memberId);

      const audit = await auditRows(
        app,
        { requestId: res.headers.get('x-request-id') ?? '' },
        { orderBy: ['record_type'] },
      );
      assert.deepEqual(
        audit.map((a) => [a.record_type, a.before_revision, a.after_revision, a.actor_type, a.actor_id]),
        [
          ['contractor', 1, 2, 'member', admin.memberId],
          ['invitation', null, 1, 'member', admin.memberId],
        ],
      );

      const event = await kysely
        .selectFrom('events')
        .selectAll()
        .where('subject_id', '=', String(invitation.id))
        .executeTakeFirstOrThrow();
      assert.equal(event.type, 'invitation.sent');
      assert.deepEqual(asJson(event.data), {
        contractorId: contractor.id,
        email: contractor.email,
        expiresAt: Math.floor((now.getTime() + 7 * DAY) / 1000),
        replacedInvitationId: null,
      });

      // No SMTP_URL: the mail is kept in the outbox, link and all, and nothing is lost.
      const mail = await kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('organization_id', '=', admin.organizationId)
        .where('kind', '=', 'contractor.invitation')
        .execute();
      assert.equal(mail.length, 1);
      const [kept] = mail;
      assert.equal(kept?.status, 'kept');
      assert.deepEqual(asJson(kept?.recipients), [contractor.email]);
      const link = await linkOf(app, admin, contractor.id);
      assert.ok(kept?.text_body.includes(link), 'the kept mail carries the link');
      assert.ok(kept?.text_body.includes('Grace Hopper'));
      // The token itself is stored nowhere but in the mail body.
      const token = link.split('/').at(-1) ?? '';
      assert.equal(token.length, 43);
      assert.ok(!JSON.stringify(row).includes(token));
    });

    it('refuses a stale expectedRevision with 409 and changes nothing', async () => {
      const contractor = await makeContractor(app, admin);
      const before = await countRows(app, 'contractor_invitations', admin.organizationId);
      const res = await invite(app, admin, contractor.id, { expectedRevision: 2 });
      assertError(res, 409, 'revision_conflict');
      assert.equal(res.error.current_revision, 1);
      assert.equal(await countRows(app, 'contractor_invitations', admin.organizationId), before);
      assert.equal((await contractorRow(app, contractor.id)).revision, 1);
      // After one invite, the revision read before it is stale.
      await inviteOk(app, admin, contractor.id);
      assertError(await invite(app, admin, contractor.id, { expectedRevision: 1 }), 409, 'revision_conflict');
    });

    it('replaces the open invitation: the old link stops working, the new one is the link', async () => {
      const contractor = await makeContractor(app, admin);
      const first = await inviteOk(app, admin, contractor.id);
      const firstLink = await linkOf(app, admin, contractor.id);
      app.clock.advance(HOUR);
      const second = await inviteOk(app, admin, contractor.id);
      const items = await listOf(app, admin, contractor.id);
      assert.deepEqual(
        items.map((i) => [i.id, i.status, i.revision]),
        [
          [second.id, 'open', 1],
          [first.id, 'replaced', 2],
        ],
      );
      assert.equal(items[1]?.replaced_at, app.clock.now().toISOString());
      const secondLink = await linkOf(app, admin, contractor.id);
      assert.notEqual(secondLink, firstLink);
      assert.equal((await getPage(firstLink)).status, 410);
      assert.equal((await getPage(secondLink)).status, 200);
      const event = await app.services.db.kysely
        .selectFrom('events')
        .select('data')
        .where('subject_id', '=', second.id)
        .executeTakeFirstOrThrow();
      assert.equal(asJson<{ replacedInvitationId: string }>(event.data).replacedInvitationId, first.id);
    });

    it('allows 3 invitations in any 24 hours, answers 429 with Retry-After, and allows again when the window moves on', async () => {
      const contractor = await makeContractor(app, admin);
      const start = app.clock.now().getTime();
      await inviteOk(app, admin, contractor.id);
      app.clock.advance(2 * HOUR);
      await inviteOk(app, admin, contractor.id);
      app.clock.advance(2 * HOUR);
      await inviteOk(app, admin, contractor.id);
      app.clock.advance(HOUR);
      const before = await countRows(app, 'mail_outbox', admin.organizationId);
      const refused = await invite(app, admin, contractor.id);
      assertError(refused, 429, 'invitation_limit_reached');
      // The first invitation leaves the window 24 h after it was sent: 19 h from now.
      assert.equal(refused.headers.get('retry-after'), String(19 * 3600));
      assert.equal(refused.error.retry_after_seconds, 19 * 3600);
      assert.equal(await countRows(app, 'mail_outbox', admin.organizationId), before, 'no mail');
      assert.equal((await listOf(app, admin, contractor.id)).length, 3);

      app.clock.set(new Date(start + DAY - SECOND));
      const stillRefused = await invite(app, admin, contractor.id);
      assertError(stillRefused, 429, 'invitation_limit_reached');
      assert.equal(stillRefused.headers.get('retry-after'), '1');

      app.clock.set(new Date(start + DAY));
      await inviteOk(app, admin, contractor.id);
      // The second one (sent at +2 h) now blocks the next slot.
      const again = await invite(app, admin, contractor.id);
      assertError(again, 429, 'invitation_limit_reached');
      assert.equal(again.headers.get('retry-after'), String(2 * 3600));
    });

    it('counts invitations per contractor: another contractor is not limited', async () => {
      const busy = await makeContractor(app, admin);
      const other = await makeContractor(app, admin);
      for (let i = 0; i < 3; i += 1) await inviteOk(app, admin, busy.id);
      assertError(await invite(app, admin, busy.id), 429, 'invitation_limit_reached');
      await inviteOk(app, admin, other.id);
    });

    it('refuses a contractor whose portal access is off (409 contractor_inactive)', async () => {
      const contractor = await makeContractor(app, admin);
      await app.services.db.kysely
        .updateTable('contractors')
        .set({ active: 0 })
        .where('id', '=', contractor.id)
        .execute();
      const res = await invite(app, admin, contractor.id);
      assertError(res, 409, 'contractor_inactive');
      assert.equal((await contractorRow(app, contractor.id)).revision, 1);
    });

    it('refuses a contractor who has joined (409 contractor_joined)', async () => {
      const contractor = await makeContractor(app, admin);
      await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      const accepted = await postAccept(link);
      assert.equal(accepted.status, 303);
      const res = await invite(app, admin, contractor.id);
      assertError(res, 409, 'contractor_joined');
    });

    it('replays a retried invite with the same key: one invitation, one email', async () => {
      const contractor = await makeContractor(app, admin);
      const mailBefore = await countRows(app, 'mail_outbox', admin.organizationId);
      const first = await invite(app, admin, contractor.id, {
        expectedRevision: 1,
        idempotencyKey: 'invite-once-1',
      });
      const again = await invite(app, admin, contractor.id, {
        expectedRevision: 1,
        idempotencyKey: 'invite-once-1',
      });
      assert.equal(first.status, 200);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await listOf(app, admin, contractor.id)).length, 1);
      assert.equal(await countRows(app, 'mail_outbox', admin.organizationId), mailBefore + 1);
      assert.equal((await contractorRow(app, contractor.id)).revision, 2);
    });

    it('validates input: idempotencyKey of 151 characters, bad id, unknown field', async () => {
      const contractor = await makeContractor(app, admin);
      const long = await call(
        app.baseUrl,
        'contractors.invite',
        { id: contractor.id, expectedRevision: 1, idempotencyKey: 'k'.repeat(151) },
        { token: admin.token },
      );
      assertError(long, 400, 'invalid_input');
      assert.equal(long.error.field, 'idempotencyKey');
      const ok150 = await call(
        app.baseUrl,
        'contractors.invite',
        { id: contractor.id, expectedRevision: 1, idempotencyKey: 'k'.repeat(150) },
        { token: admin.token },
      );
      assert.equal(ok150.status, 200);
      const badId = await call(
        app.baseUrl,
        'contractors.invite',
        { id: 'nope', expectedRevision: 1 },
        { token: admin.token },
      );
      assertError(badId, 400, 'invalid_input');
      assert.equal(badId.error.field, 'id');
      const unknown = await call(
        app.baseUrl,
        'contractors.invite',
        { id: contractor.id, expectedRevision: 2, email: 'x@example.com' },
        { token: admin.token },
      );
      assertError(unknown, 400, 'unknown_field');
      const zero = await call(
        app.baseUrl,
        'contractors.invite',
        { id: contractor.id, expectedRevision: 0 },
        { token: admin.token },
      );
      assertError(zero, 400, 'invalid_input');
    });

    it('is 404 for an unknown contractor', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.invite',
        { id: '01900000-0000-7000-8000-000000000099', expectedRevision: 1 },
        { token: admin.token },
      );
      assertError(res, 404, 'not_found');
      assert.equal(res.error.field, 'id');
    });
  });
}
