import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertAccessible, launchChromium } from '../web/browser.ts';
import { startOidcIssuer } from './oidc-issuer.ts';

const CLIENT_ID = 'accounting-dashboard';

for (const dialect of DIALECTS) {
  describe(`dashboard sign-in through OIDC with PKCE (${dialect})`, () => {
    let app: TestApp;
    let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
    let member: Caller;

    before(async () => {
      issuer = await startOidcIssuer(CLIENT_ID);
      app = await startTestApp(dialect, {
        env: { ACCOUNTING_OAUTH_ISSUER: issuer.issuer, ACCOUNTING_OIDC_CLIENT_ID: CLIENT_ID },
      });
      const oidc = app.services.config.sessions.oidc;
      assert.ok(oidc, 'OIDC is configured from the issuer and the client id');
      oidc.redirectUri = `${app.baseUrl}/dashboard/sign-in/oidc/callback`;
      member = await createCaller(app, { role: 'finance' });
      await app.services.db.kysely
        .updateTable('members')
        .set({ oauth_subject: 'user-1' })
        .where('id', '=', member.memberId)
        .execute();
    });
    after(async () => {
      await app.close();
      await issuer.close();
    });

    /** Our redirect and the issuer's: the callback URL the browser is sent to. */
    async function toCallback(): Promise<string> {
      const start = await fetch(`${app.baseUrl}/dashboard/sign-in/oidc`, { redirect: 'manual' });
      const atIssuer = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' });
      return atIssuer.headers.get('location') ?? '';
    }

    /** Follows the round trip as a browser would: our redirect, the issuer's, our callback. */
    async function roundTrip(): Promise<{ callback: string; response: Response }> {
      const start = await fetch(`${app.baseUrl}/dashboard/sign-in/oidc`, { redirect: 'manual' });
      assert.equal(start.status, 303);
      const authorize = new URL(start.headers.get('location') ?? '');
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('client_id'), CLIENT_ID);
      const atIssuer = await fetch(authorize, { redirect: 'manual' });
      const callback = atIssuer.headers.get('location') ?? '';
      return { callback, response: await fetch(callback, { redirect: 'manual' }) };
    }

    it('signs the member with that subject in; the callback cannot be replayed', async () => {
      const { callback, response } = await roundTrip();
      assert.equal(response.status, 303, await response.clone().text());
      const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      assert.match(cookie, /^acct_member=/);
      const sessions = await fetch(`${app.baseUrl}/dashboard/sessions`, { headers: { cookie } });
      assert.equal(sessions.status, 200);
      assert.match(await sessions.text(), /single sign-on/);
      const replay = await fetch(callback, { redirect: 'manual' });
      assert.equal(replay.status, 400);
      assert.match(await replay.text(), /already used/);
    });

    it('offers a choice when the identity belongs to several organizations; each choice works once', async () => {
      const second = await createCaller(app, { role: 'admin' });
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ name: 'Second & Sons' })
        .where('id', '=', second.organizationId)
        .execute();
      await app.services.db.kysely
        .updateTable('members')
        .set({ oauth_subject: 'user-1' })
        .where('id', '=', second.memberId)
        .execute();
      try {
        const { response } = await roundTrip();
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('set-cookie'), null, 'no session before the choice');
        assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
        const page = await response.text();
        assert.match(page, /Choose an organization/);
        assert.match(page, /Second &amp; Sons/, 'names are escaped');
        const actions = [
          ...page.matchAll(/action="(\/dashboard\/sign-in\/oidc\/choose\/[A-Za-z0-9_-]+)"/g),
        ].map((m) => m[1] ?? '');
        assert.equal(actions.length, 2);
        const secondAction = actions[page.indexOf('Second') < page.indexOf('Test org') ? 0 : 1] ?? '';
        const chosen = await fetch(`${app.baseUrl}${secondAction}`, { method: 'POST', redirect: 'manual' });
        assert.equal(chosen.status, 303);
        const cookie = (chosen.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        assert.match(cookie, /^acct_member=/);
        const sessions = await fetch(`${app.baseUrl}/dashboard/sessions`, { headers: { cookie } });
        const sessionsPage = await sessions.text();
        assert.match(sessionsPage, /single sign-on/);
        assert.match(sessionsPage, /Second &amp; Sons/, 'signed in to the organization chosen');
        const again = await fetch(`${app.baseUrl}${secondAction}`, { method: 'POST', redirect: 'manual' });
        assert.equal(again.status, 400, 'a choice works once');
        // In Chromium: the chooser is accessible and its button signs in to the organization named.
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(await toCallback());
          await page.getByRole('heading', { name: 'Choose an organization' }).waitFor();
          await assertAccessible(page, 'organization chooser');
          if (process.env.SCREENSHOT_DIR)
            await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/oidc-chooser.png`, fullPage: true });
          await page.getByRole('button', { name: 'Second & Sons' }).click();
          await page.waitForURL(`${app.baseUrl}/dashboard`);
        } finally {
          await browser.close();
        }
        const crossSite = await fetch(
          `${app.baseUrl}${actions[0] === secondAction ? actions[1] : actions[0]}`,
          {
            method: 'POST',
            redirect: 'manual',
            headers: { origin: 'https://evil.example' },
          },
        );
        assert.equal(crossSite.status, 403, 'another site cannot spend a choice');
      } finally {
        await app.services.db.kysely
          .updateTable('members')
          .set({ oauth_subject: null })
          .where('id', '=', second.memberId)
          .execute();
      }
    });

    it('refuses an identity that is no member, and a forged state', async () => {
      issuer.state.subject = 'stranger';
      const { response } = await roundTrip();
      assert.equal(response.status, 400);
      assert.match(await response.text(), /not an active member/);
      assert.equal(response.headers.get('set-cookie'), null);
      issuer.state.subject = 'user-1';
      const forged = await fetch(
        `${app.baseUrl}/dashboard/sign-in/oidc/callback?state=${'a'.repeat(43)}&code=x`,
        {
          redirect: 'manual',
        },
      );
      assert.equal(forged.status, 400);
    });
  });
}
