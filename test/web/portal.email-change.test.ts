import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getPage, submitAccept } from '../invitations/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from './dashboard-client.ts';
import { joinedContractor, portalClient } from './portal-client.ts';

/**
 * Issue 31 part 3: the portal identity follows the person, not the field. A finance member could
 * change a joined contractor's address, ask for a sign-in link there and act as them while the old
 * session kept working. Now only an admin may move a joined contractor, which ends their sessions
 * and links, and the portal opens again only through the invitation sent to the new address.
 */
for (const dialect of DIALECTS) {
  describe(`a joined contractor's email change (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let admin: Caller;
    let finance: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
    });
    after(async () => {
      await app?.close();
      await smtp?.close();
    });

    const mailTo = (address: string, pattern: RegExp) =>
      smtp.waitFor((m) => JSON.stringify(m.to ?? '').includes(address) && pattern.test(m.subject ?? ''));

    const unusedLinksOf = async (contractorId: string) =>
      (
        await app.services.db.kysely
          .selectFrom('sign_in_links')
          .select('id')
          .where('principal_type', '=', 'contractor')
          .where('principal_id', '=', contractorId)
          .where('used_at', 'is', null)
          .where('expires_at', '>', app.clock.now().toISOString())
          .execute()
      ).length;

    it('is refused to finance, and by an admin ends the portal until the new address accepts', async () => {
      const ada = await joinedContractor(app, admin, 'Ada');
      const session = await portalClient(app, smtp, ada.email);
      assert.equal((await session.get('/portal/hours')).status, 200);
      // An unused link mailed to the old address must die too.
      assert.equal((await new PageClient(app).post('/portal/sign-in', { email: ada.email })).status, 200);
      assert.equal(await unusedLinksOf(ada.id), 1);

      const newEmail = `ada.new.${Math.random().toString(36).slice(2, 8)}@example.com`;
      const refused = await call(
        app.baseUrl,
        'contractors.email.update',
        { id: ada.id, expectedRevision: ada.revision, email: newEmail },
        { token: finance.token },
      );
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.error.code, 'role_not_allowed');
      assert.equal(refused.error.field, 'email');
      assert.deepEqual(refused.error.allowed_roles, ['admin']);
      assert.equal((await session.get('/portal/hours')).status, 200, 'a refused change changes nothing');

      const changed = await call(
        app.baseUrl,
        'contractors.email.update',
        { id: ada.id, expectedRevision: ada.revision, email: newEmail },
        { token: admin.token },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.data.email, newEmail);
      assert.equal(changed.data.joined_at, null);
      assert.equal(changed.data.portal_status, 'invited');

      // The old session is refused at once, and the link mailed before the change is withdrawn.
      const after = await session.get('/portal/hours');
      assert.notEqual(after.status, 200);
      assert.doesNotMatch(await after.text(), /Ada/);
      assert.equal(await unusedLinksOf(ada.id), 0);

      // The old address is told.
      const told = await mailTo(ada.email, /changed the email address/);
      assert.match(told.text ?? '', new RegExp(newEmail.replace(/\./g, '\\.')));
      assert.doesNotMatch(
        told.text ?? '',
        /\/portal\/(invitations|sign-in\/link)\//,
        'no link to the old address',
      );

      // A sign-in link asked for at the new address before accepting: the usual answer, no link.
      const early = new PageClient(app);
      assert.equal((await early.post('/portal/sign-in', { email: newEmail })).status, 200);
      assert.equal(await unusedLinksOf(ada.id), 0, 'no sign-in link was issued for the new address');
      assert.equal((await early.get('/portal/hours')).status === 200, false);

      // The invitation sent to the new address is the way back in.
      const invitation = await mailTo(newEmail, /invited you/);
      const link = /(http:\/\/\S+\/portal\/invitations\/[A-Za-z0-9_-]{43})/.exec(invitation.text ?? '')?.[1];
      assert.ok(link, invitation.text);
      const accepted = await submitAccept(link, (await getPage(link)).html);
      assert.equal(accepted.status, 303, accepted.html);
      const back = await portalClient(app, smtp, newEmail);
      assert.equal((await back.get('/portal/hours')).status, 200);
      const got = await call(app.baseUrl, 'contractors.get', { id: ada.id }, { token: admin.token });
      assert.equal(got.data.portal_status, 'joined');
      // The old address signs in to nothing.
      const old = new PageClient(app);
      assert.equal((await old.post('/portal/sign-in', { email: ada.email })).status, 200);
      assert.equal(await unusedLinksOf(ada.id), 0);
    });

    it('lets finance still correct the address of a contractor who has not joined', async () => {
      const created = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Bea', legalName: 'Bea Legal', email: `bea.${Date.now()}@example.com` },
        { token: finance.token },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const changed = await call(
        app.baseUrl,
        'contractors.email.update',
        {
          id: created.data.id,
          expectedRevision: created.data.revision,
          email: `bea.fixed.${Date.now()}@example.com`,
        },
        { token: finance.token },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.data.portal_status, 'not_invited');
    });
  });
}
