import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
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
