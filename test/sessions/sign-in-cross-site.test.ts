import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorChangeMember, operatorSetOrganizationSuspended } from '../../src/admin/operator.ts';
import { ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { linkIn, PageClient } from '../web/dashboard-client.ts';
import { joinedContractor, portalClient, portalLinkIn } from '../web/portal-client.ts';

/** Asks for a sign-in link (dashboard or portal) and returns its path, unspent. */
async function linkPath(
  app: TestApp,
  smtp: TestSmtpServer,
  door: 'dashboard' | 'portal',
  email: string,
): Promise<string> {
  const before = smtp.messages.length;
  const asked = await new PageClient(app).post(`/${door}/sign-in`, { email });
  assert.equal(asked.status, 200);
  const message = await smtp.waitFor(
    (m) => smtp.messages.indexOf(m) >= before && JSON.stringify(m.to ?? '').includes(email),
  );
  const text = message.text ?? '';
  return new URL(door === 'dashboard' ? linkIn(text) : portalLinkIn(text)).pathname;
}

async function emailOf(app: TestApp, memberId: string): Promise<string> {
  const row = await app.services.db.kysely
    .selectFrom('members')
    .select('email')
    .where('id', '=', memberId)
    .executeTakeFirstOrThrow();
  return row.email;
}

for (const dialect of DIALECTS) {
  describe(`sign-in and sign-out resist cross-site requests (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let admin: Caller;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app);
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('the POST that spends a link needs our own origin: null, none, another site or cross-site fetch metadata are refused', async () => {
      const member = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const email = await emailOf(app, member.memberId);
      for (const door of ['dashboard', 'portal'] as const) {
        let path: string;
        if (door === 'dashboard') path = await linkPath(app, smtp, door, email);
        else {
          const c = await joinedContractor(app, admin, 'Csrf');
          path = await linkPath(app, smtp, door, c.email);
        }
        for (const headers of [
          { origin: 'null' } as Record<string, string>,
          { origin: '' },
          { origin: 'https://evil.example' },
          { origin: app.baseUrl, 'sec-fetch-site': 'cross-site' },
          { origin: 'null', 'sec-fetch-site': 'same-site' },
        ]) {
          const client = new PageClient(app);
          const refused = await client.post(path, {}, headers);
          assert.equal(refused.status, 403, `${door} ${JSON.stringify(headers)}`);
          assert.equal(client.cookie, '', 'no session cookie');
        }
        const bare = await fetch(`${app.baseUrl}${path}`, { method: 'POST', redirect: 'manual' });
        assert.equal(bare.status, 403, `${door}: no Origin and no Sec-Fetch-Site`);
        // The refusals spent nothing: the link still signs in from our own page.
        const client = new PageClient(app);
        const signed = await client.post(path, {}, { origin: 'null', 'sec-fetch-site': 'same-origin' });
        assert.equal(
          signed.status,
          303,
          `${door}: a no-referrer page's own form (Origin: null, same-origin)`,
        );
        assert.match(client.cookie, /^acct_(member|contractor)=/);
      }
    });

    it('dashboard sign-out refused for another site or a missing token clears neither the cookie nor the session', async () => {
      const client = new PageClient(app);
      await client.signIn(smtp, await emailOf(app, admin.memberId));
      const csrf = PageClient.csrfOf(await (await client.get('/dashboard/sessions')).text());
      for (const [form, headers] of [
        [{ _csrf: csrf }, { origin: 'https://evil.example' }],
        [{ _csrf: csrf }, { origin: 'null' }],
        [{}, {}],
        [{ _csrf: 'wrong' }, {}],
      ] as const) {
        const out = await client.post('/dashboard/sign-out', form, headers);
        assert.equal(out.status, 403, JSON.stringify([form, headers]));
        assert.equal(out.headers.getSetCookie().length, 0, 'the cookie is not cleared');
        assert.equal((await client.get('/dashboard')).status, 200, 'the session lives');
      }
      const out = await client.post('/dashboard/sign-out', { _csrf: csrf });
      assert.equal(out.status, 303);
      assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
      assert.equal((await client.get('/dashboard')).status, 303);
    });

    it('portal sign-out refused for another site or a missing token clears neither the cookie nor the session', async () => {
      const c = await joinedContractor(app, admin, 'Signout');
      const client = await portalClient(app, smtp, c.email);
      const csrf = PageClient.csrfOf(await (await client.get('/portal/hours')).text());
      for (const [form, headers] of [
        [{}, {}],
        [{ _csrf: csrf }, { origin: 'https://evil.example' }],
      ] as const) {
        const out = await client.post('/portal/sign-out', form, headers);
        assert.equal(out.status, 403, JSON.stringify([form, headers]));
        assert.equal(out.headers.getSetCookie().length, 0, 'the cookie is not cleared');
        assert.equal((await client.get('/portal/hours')).status, 200, 'the session lives');
      }
      const out = await client.post('/portal/sign-out', { _csrf: csrf });
      assert.equal(out.status, 303);
      assert.equal((await client.get('/portal/hours')).status, 303);
    });

    it('links issued before a suspension die with it: member, organization, contractor access', async () => {
      const member = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const email = await emailOf(app, member.memberId);
      const memberLink = await linkPath(app, smtp, 'dashboard', email);
      const suspended = await call(
        app.baseUrl,
        'admin.members.suspend',
        { id: member.memberId, expectedRevision: 1 },
        { token: admin.token },
      );
      assert.equal(suspended.status, 200);
      await operatorChangeMember(app.services, 'operator', {
        organizationId: admin.organizationId,
        memberId: member.memberId,
        change: { status: 'active' },
      });
      assert.equal((await new PageClient(app).post(memberLink, {})).status, 400, 'member link dead');

      const other = await createCaller(app);
      const otherEmail = await emailOf(app, other.memberId);
      const orgLink = await linkPath(app, smtp, 'dashboard', otherEmail);
      const c = await joinedContractor(app, other, 'Orgsuspend');
      const contractorLink = await linkPath(app, smtp, 'portal', c.email);
      await operatorSetOrganizationSuspended(app.services, 'operator', other.organizationId, true);
      await operatorSetOrganizationSuspended(app.services, 'operator', other.organizationId, false);
      assert.equal((await new PageClient(app).post(orgLink, {})).status, 400, 'organization link dead');
      assert.equal((await new PageClient(app).post(contractorLink, {})).status, 400, 'portal link dead');

      const d = await joinedContractor(app, admin, 'Deactivated');
      const accessLink = await linkPath(app, smtp, 'portal', d.email);
      const off = await ok(app, admin, 'contractors.update', {
        id: d.id,
        expectedRevision: d.revision,
        active: false,
      });
      await ok(app, admin, 'contractors.update', { id: d.id, expectedRevision: off.revision, active: true });
      assert.equal((await new PageClient(app).post(accessLink, {})).status, 400, 'access link dead');
      // A link asked for after the reinstatement works.
      const fresh = await linkPath(app, smtp, 'dashboard', email);
      assert.equal((await new PageClient(app).post(fresh, {})).status, 303);
    });
  });
}
