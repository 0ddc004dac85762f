import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp.ts';
import { op } from './helpers.ts';

// Decision 460: a member added by an admin is told where to sign in, in the unit of the change.

const to = (message: ParsedMail) =>
  (Array.isArray(message.to) ? message.to : message.to ? [message.to] : []).flatMap((list) =>
    list.value.map((address) => address.address ?? ''),
  );

for (const dialect of DIALECTS) {
  describe(`admin.members.add mails the new member (${dialect})`, () => {
    let smtp: TestSmtpServer;
    let app: TestApp;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('sends the organization, the role and the sign-in page, with no token', async () => {
      const admin = await createCaller(app);
      const added = await op(app, admin, 'admin.members.add', {
        email: 'Linus@Example.com',
        role: 'finance',
        name: 'Linus',
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const message = await smtp.waitFor((m) => to(m).includes('linus@example.com'));
      assert.equal(message.subject, 'You were added to Test org');
      const text = message.text ?? '';
      assert.match(text, /Hello Linus,/);
      assert.match(text, /with the Finance role/);
      assert.ok(text.includes(`Sign in to the dashboard:\n${app.baseUrl}/dashboard/sign-in\n`), text);
      assert.ok(String(message.html).includes(`href="${app.baseUrl}/dashboard/sign-in"`));
      assert.doesNotMatch(text, /[A-Za-z0-9_-]{43}|sign-in\/link/);
    });

    it('mails nothing when the member is refused', async () => {
      const admin = await createCaller(app);
      assert.equal(
        (await op(app, admin, 'admin.members.add', { email: 'twice@example.com', role: 'admin' })).status,
        200,
      );
      await smtp.waitFor((m) => to(m).includes('twice@example.com'));
      const refused = await op(app, admin, 'admin.members.add', {
        email: 'TWICE@example.com',
        role: 'admin',
      });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      const queued = await app.services.db.kysely
        .selectFrom('mail_outbox')
        .select('recipients')
        .where('kind', '=', 'member.added')
        .execute();
      assert.equal(queued.filter((row) => String(row.recipients).includes('twice@example.com')).length, 1);
    });
  });
}
