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
        env: {
          ACCOUNTING_OAUTH_ISSUER: issuer.issuer,
          ACCOUNTING_OIDC_CLIENT_ID: CLIENT_ID,
          ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1h',
        },
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

    /** The `name=value` pairs of a response's Set-Cookie headers that set (not clear) a cookie. */
    function cookiesOf(response: Response): string {
      return response.headers
        .getSetCookie()
        .map((set) => set.split(';')[0] ?? '')
        .filter((pair) => !pair.endsWith('='))
        .join('; ');
    }

    /** Follows the round trip as a browser would: our redirect, the issuer's, our callback. */
    async function roundTrip(
      options: { browser?: 'same' | 'other' } = {},
    ): Promise<{ callback: string; response: Response; stateCookie: string }> {
      const start = await fetch(`${app.baseUrl}/dashboard/sign-in/oidc`, { redirect: 'manual' });
      assert.equal(start.status, 303);
      const stateCookie = cookiesOf(start);
      assert.match(
        start.headers.get('set-cookie') ?? '',
        /_oidc_state=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600/,
      );
      const authorize = new URL(start.headers.get('location') ?? '');
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('client_id'), CLIENT_ID);
      const atIssuer = await fetch(authorize, { redirect: 'manual' });
      const callback = atIssuer.headers.get('location') ?? '';
      // The browser that started the sign-in carries its state cookie back; another one does not.
      const headers: Record<string, string> = options.browser === 'other' ? {} : { cookie: stateCookie };
      return { callback, response: await fetch(callback, { redirect: 'manual', headers }), stateCookie };
    }

    it('signs the member with that subject in; the callback cannot be replayed', async () => {
      const { callback, response, stateCookie } = await roundTrip();
      assert.equal(response.status, 303, await response.clone().text());
      const cookie = cookiesOf(response);
      assert.match(cookie, /^acct_member=[^;]+$/);
      const sessions = await fetch(`${app.baseUrl}/dashboard/sessions`, { headers: { cookie } });
      assert.equal(sessions.status, 200);
      assert.match(await sessions.text(), /single sign-on/);
      const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
      assert.equal(replay.status, 400);
      assert.match(await replay.text(), /already used/);
    });

    it("binds the state to the browser: an attacker's callback URL signs a victim in to nothing", async () => {
      // The attacker starts a sign-in in their browser and hands the callback URL to the victim.
      const { callback, response } = await roundTrip({ browser: 'other' });
      assert.equal(response.status, 400);
      assert.match(await response.text(), /started in another browser/);
      assert.ok(!cookiesOf(response).includes('acct_member='), 'no session');
      // A victim with a state cookie of their own is refused as well.
      const own = await fetch(`${app.baseUrl}/dashboard/sign-in/oidc`, { redirect: 'manual' });
      const victim = await fetch(callback, { redirect: 'manual', headers: { cookie: cookiesOf(own) } });
      assert.equal(victim.status, 400);
      assert.ok(!cookiesOf(victim).includes('acct_member='));
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
        const choiceCookie = cookiesOf(response);
        assert.doesNotMatch(choiceCookie, /acct_member=/, 'no session before the choice');
        assert.match(choiceCookie, /^acct_member_oidc_choice=/);
        assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
        const page = await response.text();
        assert.match(page, /Choose an organization/);
        assert.match(page, /Second &amp; Sons/, 'names are escaped');
        const actions = [
          ...page.matchAll(/action="(\/dashboard\/sign-in\/oidc\/choose\/[A-Za-z0-9_-]+)"/g),
        ].map((m) => m[1] ?? '');
        assert.equal(actions.length, 2);
        const secondAction = actions[page.indexOf('Second') < page.indexOf('Test org') ? 0 : 1] ?? '';
        const firstAction = actions[0] === secondAction ? actions[1] : actions[0];
        const post = (action: string | undefined, headers: Record<string, string>) =>
          fetch(`${app.baseUrl}${action}`, { method: 'POST', redirect: 'manual', headers });
        // Another browser (no chooser cookie) cannot spend a choice, even from our own origin.
        const elsewhere = await post(secondAction, { origin: app.baseUrl });
        assert.equal(elsewhere.status, 400, 'a choice is bound to the browser shown it');
        const nullOrigin = await post(secondAction, { origin: 'null', cookie: choiceCookie });
        assert.equal(nullOrigin.status, 403, 'Origin: null is refused');
        const noOrigin = await post(secondAction, { cookie: choiceCookie });
        assert.equal(noOrigin.status, 403, 'a POST without Origin or Sec-Fetch-Site is refused');
        const chosen = await post(secondAction, { origin: app.baseUrl, cookie: choiceCookie });
        assert.equal(chosen.status, 303);
        const cookie = cookiesOf(chosen);
        assert.match(cookie, /^acct_member=[^;]+$/);
        const sessions = await fetch(`${app.baseUrl}/dashboard/sessions`, { headers: { cookie } });
        const sessionsPage = await sessions.text();
        assert.match(sessionsPage, /single sign-on/);
        assert.match(sessionsPage, /Second &amp; Sons/, 'signed in to the organization chosen');
        const again = await post(secondAction, { origin: app.baseUrl, cookie: choiceCookie });
        assert.equal(again.status, 400, 'a choice works once');
        // In Chromium: the chooser is accessible and its button signs in to the organization named.
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          // The browser starts the sign-in itself (its state cookie), then follows the issuer.
          await page.goto(`${app.baseUrl}/dashboard/sign-in/oidc`);
          await page.getByRole('heading', { name: 'Choose an organization' }).waitFor();
          await assertAccessible(page, 'organization chooser');
          if (process.env.SCREENSHOT_DIR)
            await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/oidc-chooser.png`, fullPage: true });
          await page.getByRole('button', { name: 'Second & Sons' }).click();
          await page.waitForURL(`${app.baseUrl}/dashboard`);
        } finally {
          await browser.close();
        }
        const crossSite = await post(firstAction, { origin: 'https://evil.example', cookie: choiceCookie });
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
      assert.equal(cookiesOf(response), '', 'no session');
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
