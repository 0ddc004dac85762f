import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import {
  contractorRow,
  getPage,
  invite,
  inviteOk,
  linkOf,
  listOf,
  makeContractor,
  startInvitationApp,
  submitAccept,
} from '../../invitations/helpers.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp.ts';

function recipients(message: ParsedMail): string[] {
  const to = Array.isArray(message.to) ? message.to : message.to ? [message.to] : [];
  return to.flatMap((list) => list.value.map((address) => address.address ?? ''));
}

function linkIn(message: ParsedMail): string {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/portal\/invitations\/[A-Za-z0-9_-]{43})/.exec(
    message.text ?? '',
  )?.[1];
  assert.ok(link, `no invitation link in: ${message.text}`);
  return link;
}

for (const dialect of DIALECTS) {
  describe(`invitation email over SMTP (${dialect})`, () => {
    let smtp: TestSmtpServer;
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startInvitationApp(dialect, { env: { SMTP_URL: smtp.url } });
      admin = await createCaller(app);
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('delivers the invitation with its link; following the link over HTTP accepts', async () => {
      const contractor = await makeContractor(app, admin, { displayName: 'Katherine Johnson' });
      const invitation = await inviteOk(app, admin, contractor.id);
      const message = await smtp.waitFor((m) => recipients(m).includes(contractor.email));
      assert.equal(message.subject, 'Test org invited you to its contractor portal');
      assert.match(message.text ?? '', /Hello Katherine Johnson,/);
      const link = linkIn(message);
      assert.equal(link, await linkOf(app, admin, contractor.id), 'the mailed link is the link');
      assert.ok(String(message.html).includes(`href="${link}"`), 'the HTML part links to it too');

      const outbox = await app.services.db.kysely
        .selectFrom('mail_outbox')
        .select(['status', 'sent_at'])
        .where('organization_id', '=', admin.organizationId)
        .where('kind', '=', 'contractor.invitation')
        .execute();
      assert.deepEqual(
        outbox.map((row) => row.status),
        ['sent'],
      );

      const page = await getPage(link);
      assert.equal(page.status, 200);
      const accepted = await submitAccept(link, page.html);
      assert.equal(accepted.status, 303, 'accepting signs in and opens the portal');
      assert.equal(accepted.headers.get('location'), '/portal/hours?done=joined');
      assert.notEqual((await contractorRow(app, contractor.id)).joined_at, null);
      assert.equal((await listOf(app, admin, contractor.id))[0]?.id, invitation.id);
      assert.equal((await listOf(app, admin, contractor.id))[0]?.status, 'accepted');
    });

    it('sends one email for a replayed invite, and a new one with a new link for a new invite', async () => {
      const contractor = await makeContractor(app, admin);
      const first = await invite(app, admin, contractor.id, {
        expectedRevision: 1,
        idempotencyKey: 'mail-once-01',
      });
      const replay = await invite(app, admin, contractor.id, {
        expectedRevision: 1,
        idempotencyKey: 'mail-once-01',
      });
      assert.deepEqual(replay.body, first.body);
      const firstMail = await smtp.waitFor((m) => recipients(m).includes(contractor.email));
      await inviteOk(app, admin, contractor.id);
      await smtp.waitFor((m) => m !== firstMail && recipients(m).includes(contractor.email));
      const mails = smtp.messages.filter((m) => recipients(m).includes(contractor.email));
      assert.equal(mails.length, 2, 'one mail per invitation, none for the replay');
      const [oldLink, newLink] = mails.map(linkIn);
      assert.notEqual(oldLink, newLink);
      assert.equal((await getPage(oldLink ?? '')).status, 410);
      assert.equal((await getPage(newLink ?? '')).status, 200);
    });

    it('sends nothing for a refused invite', async () => {
      const contractor = await makeContractor(app, admin);
      const before = smtp.messages.length;
      const res = await invite(app, admin, contractor.id, { expectedRevision: 7 });
      assert.equal(res.status, 409);
      await app.services.mail.dispatchPending();
      assert.equal(smtp.messages.length, before);
    });
  });
}
