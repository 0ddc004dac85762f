import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { addMember, setMemberStatus } from '../../src/admin/organizations.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput, newOrganization, unique } from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * OAuth access tokens: JWTs checked against the issuer's JWKS, fetched from a real HTTP server
 * on loopback, mapped to a member through members.oauth_subject, with scopes from the token.
 * Token times are relative to the test clock, which the verifier uses.
 */

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

interface Issuer {
  url: string;
  keys: KeyPair;
  close(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const keys = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' };
  const server: Server = createServer((request, response) => {
    if (request.url === '/.well-known/jwks.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const dialect of DIALECTS) {
  describe(`OAuth access tokens (${dialect})`, () => {
    let app: TestApp;
    let issuer: Issuer;
    let stranger: KeyPair;
    let organizationId: string;
    let subject: string;
    const audience = 'https://accounting.example.com';

    before(async () => {
      issuer = await startIssuer();
      stranger = await generateKeyPair('ES256');
      app = await startTestApp(dialect, {
        env: { ACCOUNTING_OAUTH_ISSUER: issuer.url, ACCOUNTING_OAUTH_AUDIENCE: audience },
      });
      organizationId = await newOrganization(app);
      subject = unique('user');
      await addMember(app.services.db.kysely, app.clock, {
        organizationId,
        email: `${subject}@example.com`,
        role: 'finance',
        oauthSubject: subject,
      });
    });
    after(async () => {
      await app?.close();
      await issuer?.close();
    });

    /** A token valid for five minutes around the test clock unless told otherwise. */
    async function token(
      claims: Record<string, unknown> = {},
      options: { key?: KeyPair; iss?: string; aud?: string; sub?: string; iat?: number; exp?: number } = {},
    ): Promise<string> {
      const now = Math.floor(app.clock.now().getTime() / 1000);
      return new SignJWT({ scope: 'accounting:read accounting:write', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'key-1' })
        .setIssuer(options.iss ?? issuer.url)
        .setAudience(options.aud ?? audience)
        .setSubject(options.sub ?? subject)
        .setIssuedAt(options.iat ?? now)
        .setExpirationTime(options.exp ?? now + 300)
        .sign((options.key ?? issuer.keys).privateKey);
    }

    it('acts as the mapped member with the scopes of the token', async () => {
      const created = await call(app.baseUrl, 'contractors.create', contractorInput(), {
        token: await token(),
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const [audit] = await auditRows(
        app,
        { recordId: String(created.data.id) },
        { columns: ['organization_id', 'credential_id'] },
      );
      assert.deepEqual(audit, { organization_id: organizationId, credential_id: `oauth:${subject}` });

      const readOnly = await token({ scope: 'accounting:read' });
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: readOnly })).status, 200);
      const refused = await call(app.baseUrl, 'contractors.create', contractorInput(), { token: readOnly });
      assertError(refused, 403, 'insufficient_scope', 'read-only token');
      const scp = await token({ scope: undefined, scp: ['accounting:read'] });
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: scp })).status, 200);
      const none = await token({ scope: 'openid profile' });
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: none }),
        403,
        'insufficient_scope',
        'no scope',
      );
    });

    it('refuses tokens with the wrong issuer, audience, key, algorithm or times (401)', async () => {
      const now = Math.floor(app.clock.now().getTime() / 1000);
      const bad: Record<string, string> = {
        'wrong issuer': await token({}, { iss: 'https://evil.example.com' }),
        'wrong audience': await token({}, { aud: 'https://other.example.com' }),
        'unknown key': await token({}, { key: stranger }),
        expired: await token({}, { iat: now - 3600, exp: now - 60 }),
        'not yet valid': await token({ nbf: now + 600 }, { exp: now + 900 }),
        'unsigned (alg none)': `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
          JSON.stringify({ iss: issuer.url, aud: audience, sub: subject, exp: now + 300 }),
        ).toString('base64url')}.`,
        'unknown subject': await token({}, { sub: 'nobody' }),
        garbage: 'eyJhbGciOiJFUzI1NiJ9.e30.AAAA',
      };
      for (const [why, jwt] of Object.entries(bad)) {
        const res = await call(app.baseUrl, 'contractors.list', {}, { token: jwt });
        assertError(res, 401, 'invalid_credential', why);
      }
      const expired = await call(app.baseUrl, 'contractors.list', {}, { token: bad.expired ?? '' });
      assert.match(expired.error.message, /expired/);
    });

    it('follows the test clock: a token expires when the clock passes exp', async () => {
      const jwt = await token();
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: jwt })).status, 200);
      app.clock.advance(10 * 60_000);
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: jwt }),
        401,
        'invalid_credential',
        'later',
      );
    });

    it('checks membership and the organization header like API keys', async () => {
      const otherOrg = await newOrganization(app);
      const member = await addMember(app.services.db.kysely, app.clock, {
        organizationId: otherOrg,
        email: `${subject}@example.com`,
        role: 'admin',
        oauthSubject: subject,
      });
      // The subject is now in two organizations: the header (or org_id claim) chooses.
      const jwt = await token();
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: jwt }),
        403,
        'organization_mismatch',
        'two orgs',
      );
      const chosen = await call(app.baseUrl, 'contractors.create', contractorInput(), {
        token: jwt,
        headers: { 'x-accounting-organization': otherOrg },
      });
      assert.equal(chosen.status, 200);
      const row = await app.services.db.kysely
        .selectFrom('contractors')
        .select('organization_id')
        .where('id', '=', String(chosen.data.id))
        .executeTakeFirstOrThrow();
      assert.equal(row.organization_id, otherOrg);
      const claimed = await token({ org_id: otherOrg });
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: claimed })).status, 200);
      const elsewhere = await call(
        app.baseUrl,
        'contractors.list',
        {},
        {
          token: jwt,
          headers: { 'x-accounting-organization': await newOrganization(app) },
        },
      );
      assertError(elsewhere, 403, 'organization_mismatch', 'not a member there');

      await setMemberStatus(app.services.db.kysely, app.clock, {
        organizationId: otherOrg,
        memberId: member.id,
        status: 'suspended',
      });
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: claimed }),
        403,
        'membership_inactive',
        'suspended',
      );
    });
  });

  describe(`OAuth issuer outages (${dialect})`, () => {
    // An issuer whose key set answers 500 until told otherwise, then its real keys.
    let healthy = false;
    let keys: KeyPair;
    let jwk: JWK;
    let server: Server;
    let app: TestApp;
    let url: string;
    before(async () => {
      keys = await generateKeyPair('ES256');
      jwk = { ...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' };
      server = createServer((_request, response) => {
        if (!healthy) return void response.writeHead(500).end('down');
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ keys: [jwk] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      app = await startTestApp(dialect, { env: { ACCOUNTING_OAUTH_ISSUER: url } });
      const organizationId = await newOrganization(app);
      await addMember(app.services.db.kysely, app.clock, {
        organizationId,
        email: `${unique('outage')}@example.com`,
        role: 'admin',
        oauthSubject: 'outage-subject',
      });
    });
    after(async () => {
      await app?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const token = () => {
      const now = Math.floor(app.clock.now().getTime() / 1000);
      return new SignJWT({ scope: 'accounting:read' })
        .setProtectedHeader({ alg: 'ES256', kid: 'key-1' })
        .setIssuer(url)
        .setSubject('outage-subject')
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(keys.privateKey);
    };

    it('answers 503 oauth_unavailable with Retry-After while the key set cannot be fetched, then recovers', async () => {
      const down = await call(app.baseUrl, 'contractors.list', {}, { token: await token() });
      assertError(down, 503, 'oauth_unavailable');
      assert.equal(down.headers.get('retry-after'), '30');
      // A malformed token is still the caller's fault, outage or not.
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: 'a.b.c' }),
        401,
        'invalid_credential',
      );
      healthy = true;
      const up = await call(app.baseUrl, 'contractors.list', {}, { token: await token() });
      assert.equal(up.status, 200, JSON.stringify(up.body));
    });
  });
}
