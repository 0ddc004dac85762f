import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createApiKey } from '../../src/admin/organizations.ts';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { openDatabase } from '../../src/db/database.ts';
import { buildServer } from '../../src/server.ts';
import { createServices, type Services } from '../../src/services.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { runCli } from '../support/processes.ts';

/**
 * The API key lookup is cached for a few seconds (decision 273), but a change made by ANOTHER
 * process (the CLI, a second server on the same PostgreSQL) stops the very next request on this
 * one: no waiting for the cache's time limit (30 minutes here, so only invalidation can explain a
 * refusal).
 */
const LONG_CACHE = { ACCOUNTING_CREDENTIAL_CACHE: '30m' };

/** PostgreSQL: the cache serves only once the process listens; wait for the session to connect. */
async function listening(services: Services): Promise<void> {
  if (services.db.dialect !== 'postgres') return;
  while (!services.wakeups.hearsOtherProcesses) await sleep(10);
}

/**
 * PostgreSQL: another process's change reaches this one as a notification, delivered when
 * PostgreSQL signals the listener after the commit: usually before the client can send its next
 * request, but on a starved machine a few milliseconds later (decision 273). Waits until this
 * process has heard it (its cache emptied); the test then asserts the very next request.
 */
async function heardChange(services: Services): Promise<void> {
  // SQLite reads the generation on every request: nothing to wait for.
  if (services.db.dialect !== 'postgres') return;
  for (let waited = 0; services.credentials.size > 0; waited += 10) {
    assert.ok(waited < 5_000, 'the change was heard');
    await sleep(10);
  }
}

/**
 * Asks until the caller's key stays cached. PostgreSQL: the notifications of the caller's own
 * inserts arrive after their commits and empty the cache, so the first answer may not stick.
 */
async function untilCached(services: Services, request: () => Promise<{ status: number }>): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    assert.equal((await request()).status, 200);
    if (services.credentials.size > 0) return;
    assert.ok(attempt < 100, 'the key is cached');
    await sleep(10);
  }
}

function errorCode(response: { body: unknown }): string | undefined {
  return (response.body as { error?: { code?: string } }).error?.code;
}

for (const dialect of DIALECTS) {
  describe(`credential cache (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect, { env: LONG_CACHE });
      await listening(app.services);
    });
    after(() => app.close());

    /** A fresh caller whose key is in the cache (asserted, so a refusal proves invalidation). */
    async function cachedCaller(): Promise<Caller> {
      const caller = await createCaller(app);
      const list = () => call(app.baseUrl, 'contractors.list', {}, { token: caller.token });
      await untilCached(app.services, list);
      return caller;
    }
    const listAs = (caller: Caller) => call(app.baseUrl, 'contractors.list', {}, { token: caller.token });
    const cli = (caller: Caller, args: string[]) =>
      runCli([...args, '--org', caller.organizationId], app.database.env);

    it('refuses a key revoked from the command line on the next request', async () => {
      const caller = await cachedCaller();
      const key = await app.services.db.kysely
        .selectFrom('api_keys')
        .select('id')
        .where('member_id', '=', caller.memberId)
        .executeTakeFirstOrThrow();
      const revoked = await cli(caller, ['keys', 'revoke', '--key', key.id]);
      assert.equal(revoked.code, 0, revoked.stderr);
      await heardChange(app.services);
      const refused = await listAs(caller);
      assert.equal(refused.status, 401);
      assert.equal(errorCode(refused), 'invalid_credential');
    });

    it('refuses a member suspended from the command line on the next request, and lets them back in', async () => {
      const caller = await cachedCaller();
      // The last active admin is never suspended: a second one keeps the organization run.
      await createCaller(app, { organizationId: caller.organizationId });
      const suspended = await cli(caller, [
        'members',
        'set-status',
        '--member',
        caller.memberId,
        '--status',
        'suspended',
      ]);
      assert.equal(suspended.code, 0, suspended.stderr);
      await heardChange(app.services);
      const refused = await listAs(caller);
      // Suspending a member also ends its keys (see `members set-status`): refused either way.
      assert.ok(refused.status === 401 || refused.status === 403, `status ${refused.status}`);
    });

    it('applies a role changed from the command line on the next request', async () => {
      const caller = await cachedCaller();
      await createCaller(app, { organizationId: caller.organizationId });
      const admins = () => call(app.baseUrl, 'admin.members.list', {}, { token: caller.token });
      assert.equal((await admins()).status, 200);
      const demoted = await cli(caller, [
        'members',
        'set-role',
        '--member',
        caller.memberId,
        '--role',
        'finance',
      ]);
      assert.equal(demoted.code, 0, demoted.stderr);
      await heardChange(app.services);
      const refused = await admins();
      assert.equal(refused.status, 403);
      assert.equal((await listAs(caller)).status, 200);
    });

    it('refuses the keys of an organization suspended from the command line on the next request', async () => {
      const caller = await cachedCaller();
      const suspended = await cli(caller, ['orgs', 'suspend']);
      assert.equal(suspended.code, 0, suspended.stderr);
      await heardChange(app.services);
      const refused = await listAs(caller);
      assert.equal(refused.status, 403);
      assert.equal(errorCode(refused), 'organization_suspended');
    });

    it('checks a cached key against its expiry on every request', async () => {
      const caller = await createCaller(app);
      const { token } = await createApiKey(app.services.db.kysely, app.clock, {
        organizationId: caller.organizationId,
        memberId: caller.memberId,
        scopes: ACCOUNTING_SCOPES,
      });
      await app.services.db.kysely
        .updateTable('api_keys')
        .set({ expires_at: new Date(app.clock.now().getTime() + 60_000).toISOString() })
        .where('member_id', '=', caller.memberId)
        .execute();
      const list = () => call(app.baseUrl, 'contractors.list', {}, { token });
      assert.equal((await list()).status, 200);
      assert.equal((await list()).status, 200);
      app.clock.advance(61_000);
      const refused = await list();
      assert.equal(refused.status, 401);
      assert.equal(errorCode(refused), 'invalid_credential');
    });

    it('never serves a wrong secret from the cache', async () => {
      const caller = await cachedCaller();
      const wrong = `${caller.token.slice(0, -4)}${caller.token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const refused = await call(app.baseUrl, 'contractors.list', {}, { token: wrong });
      assert.equal(refused.status, 401);
      assert.equal((await listAs(caller)).status, 200);
    });
  });
}

if (DIALECTS.includes('postgres')) {
  describe('credential cache across two servers on one PostgreSQL', () => {
    let app: TestApp;
    let other: { services: Services; server: FastifyInstance; baseUrl: string };
    before(async () => {
      app = await startTestApp('postgres', { env: LONG_CACHE });
      const db = openDatabase({
        databaseUrl: app.database.url,
        dataDir: app.database.env.ACCOUNTING_DATA_DIR,
        poolSize: 2,
      });
      const services = await createServices(app.services.config, { db, logger: pino({ level: 'silent' }) });
      const server = await buildServer(services);
      other = { services, server, baseUrl: await server.listen({ port: 0, host: '127.0.0.1' }) };
      await listening(app.services);
      await listening(services);
    });
    after(async () => {
      await other.server.close();
      await other.services.db.close();
      await app.close();
    });

    it('a key revoked through the other server is refused by this one on the next request', async () => {
      const caller = await createCaller(app);
      const second = await createCaller(app, { organizationId: caller.organizationId });
      const list = () => call(app.baseUrl, 'contractors.list', {}, { token: caller.token });
      await untilCached(app.services, list);
      const key = await app.services.db.kysely
        .selectFrom('api_keys')
        .select(['id', 'revision'])
        .where('member_id', '=', caller.memberId)
        .executeTakeFirstOrThrow();
      const revoked = await call(
        other.baseUrl,
        'admin.apiKeys.revoke',
        { id: key.id, expectedRevision: key.revision },
        { token: second.token },
      );
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      await heardChange(app.services);
      const refused = await list();
      assert.equal(refused.status, 401);
    });

    it('a member suspended through the other server is refused by this one on the next request', async () => {
      const caller = await createCaller(app);
      const second = await createCaller(app, { organizationId: caller.organizationId });
      const list = () => call(app.baseUrl, 'contractors.list', {}, { token: caller.token });
      await untilCached(app.services, list);
      const member = await app.services.db.kysely
        .selectFrom('members')
        .select('revision')
        .where('id', '=', caller.memberId)
        .executeTakeFirstOrThrow();
      const suspended = await call(
        other.baseUrl,
        'admin.members.suspend',
        { id: caller.memberId, expectedRevision: member.revision },
        { token: second.token },
      );
      assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
      await heardChange(app.services);
      const refused = await list();
      assert.ok(refused.status === 401 || refused.status === 403, `status ${refused.status}`);
    });

    it('is bypassed while this process does not hear the others', async () => {
      const { credentials, wakeups } = app.services;
      wakeups.setHearsOtherProcesses(false);
      try {
        assert.equal(await credentials.stamp(), undefined);
      } finally {
        wakeups.setHearsOtherProcesses(true);
      }
      assert.notEqual(await credentials.stamp(), undefined);
    });
  });
}
