import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MINUTE } from '../../../src/lib/clock.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { auditRows, op } from './helpers.ts';

interface ApiKey {
  id: string;
  created_by: string;
  scopes: string[];
  status: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  revision: number;
}

for (const dialect of DIALECTS) {
  describe(`admin.apiKeys.* (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect, {
        env: { ACCOUNTING_SECRET_KEY: 'test-operator-key-0123456789abcdefghijklmnop' },
      });
    });
    after(() => app.close());

    it('shows the key once; it works, acts as its creator, and the list never holds it', async () => {
      const admin = await createCaller(app);
      const created = await op(
        app,
        admin,
        'admin.apiKeys.create',
        { scopes: ['accounting:read'], name: 'reporting' },
        { idempotencyKey: 'key-create-1' },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const { key, secret } = created.data as unknown as { key: ApiKey; secret: string };
      assert.match(secret, /^ak_[0-9a-f]{16}_/);
      assert.equal(key.created_by, admin.memberId);
      assert.deepEqual(key.scopes, ['accounting:read']);
      assert.equal(key.status, 'active');

      const used = await call(app.baseUrl, 'contractors.list', {}, { token: secret });
      assert.equal(used.status, 200);
      assertError(
        await call(
          app.baseUrl,
          'contractors.create',
          { displayName: 'A', legalName: 'A', email: 'a@example.com' },
          { token: secret },
        ),
        403,
        'insufficient_scope',
      );

      const listed = await op(app, admin, 'admin.apiKeys.list', {}, { method: 'GET' });
      const text = JSON.stringify(listed.body);
      assert.ok(!text.includes(secret.slice(-20)), 'the list never shows the key');
      const row = (listed.data.items as ApiKey[]).find((item) => item.id === key.id);
      assert.equal(row?.last_used_at, app.clock.now().toISOString(), 'last use recorded');

      // The replay gives the same key back, yet the stored answer holds it sealed only.
      const replay = await op(
        app,
        admin,
        'admin.apiKeys.create',
        { scopes: ['accounting:read'], name: 'reporting' },
        { idempotencyKey: 'key-create-1' },
      );
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.data.secret, secret);
      const stored = await app.services.db.kysely.selectFrom('idempotency_keys').selectAll().execute();
      assert.ok(
        !JSON.stringify(stored).includes(secret.slice(-20)),
        'no key in clear in idempotency records',
      );

      const audit = await auditRows(app, admin.organizationId, key.id);
      assert.deepEqual(
        audit.map((r) => [r.operation, r.before_revision, r.after_revision]),
        [['admin.apiKeys.create', null, 1]],
      );
    });

    it('never gives a key a scope its creator lacks', async () => {
      const admin = await createCaller(app, {
        scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
      });
      for (const scopes of [['mail:read'], ['accounting:read', 'mail:write']]) {
        const res = await op(app, admin, 'admin.apiKeys.create', { scopes });
        assertError(res, 403, 'scope_not_held', scopes.join());
        assert.equal(res.error.field, 'scopes');
        assert.deepEqual(
          res.error.missing_scopes,
          scopes.filter((s) => s.startsWith('mail:')),
        );
      }
      const count = await app.services.db.kysely
        .selectFrom('api_keys')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .execute();
      assert.equal(count.length, 1, 'only the caller key exists');
    });

    it('stops an expired key at once and reports it expired', async () => {
      const admin = await createCaller(app);
      const expiresAt = new Date(app.clock.now().getTime() + 10 * MINUTE).toISOString();
      const created = await op(app, admin, 'admin.apiKeys.create', {
        scopes: ['accounting:read'],
        expiresAt,
      });
      const { key, secret } = created.data as unknown as { key: ApiKey; secret: string };
      assert.equal(key.expires_at, expiresAt);
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: secret })).status, 200);
      app.clock.advance(10 * MINUTE);
      try {
        const refused = await call(app.baseUrl, 'contractors.list', {}, { token: secret });
        assertError(refused, 401, 'invalid_credential');
        const listed = await op(app, admin, 'admin.apiKeys.list');
        assert.equal((listed.data.items as ApiKey[]).find((item) => item.id === key.id)?.status, 'expired');
        const past = await op(app, admin, 'admin.apiKeys.create', { scopes: ['accounting:read'], expiresAt });
        assertError(past, 400, 'invalid_input');
        assert.equal(past.error.field, 'expiresAt');
      } finally {
        app.clock.advance(-10 * MINUTE);
      }
    });

    it('records the last use at most once a minute', async () => {
      const admin = await createCaller(app);
      const { key, secret } = (await op(app, admin, 'admin.apiKeys.create', { scopes: ['accounting:read'] }))
        .data as unknown as { key: ApiKey; secret: string };
      const lastUsed = async () =>
        (
          await app.services.db.kysely
            .selectFrom('api_keys')
            .select('last_used_at')
            .where('id', '=', key.id)
            .executeTakeFirstOrThrow()
        ).last_used_at;
      const start = app.clock.now();
      await call(app.baseUrl, 'contractors.list', {}, { token: secret });
      const first = await lastUsed();
      assert.equal(new Date(String(first)).toISOString(), start.toISOString());
      app.clock.advance(30_000);
      await call(app.baseUrl, 'contractors.list', {}, { token: secret });
      assert.equal(
        new Date(String(await lastUsed())).toISOString(),
        start.toISOString(),
        'not rewritten within a minute',
      );
      app.clock.advance(31_000);
      await call(app.baseUrl, 'contractors.list', {}, { token: secret });
      assert.equal(new Date(String(await lastUsed())).toISOString(), app.clock.now().toISOString());
      app.clock.set(start);
    });

    it('revokes with a revision check; the key stops at once; revoking twice is a state error', async () => {
      const admin = await createCaller(app);
      const { key, secret } = (await op(app, admin, 'admin.apiKeys.create', { scopes: ['accounting:read'] }))
        .data as unknown as { key: ApiKey; secret: string };
      assertError(
        await op(app, admin, 'admin.apiKeys.revoke', { id: key.id, expectedRevision: 2 }),
        409,
        'revision_conflict',
      );
      const revoked = await op(app, admin, 'admin.apiKeys.revoke', { id: key.id, expectedRevision: 1 });
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(revoked.data.status, 'revoked');
      assert.equal(revoked.data.revision, 2);
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: secret }),
        401,
        'invalid_credential',
      );
      const again = await op(app, admin, 'admin.apiKeys.revoke', { id: key.id, expectedRevision: 2 });
      assertError(again, 409, 'invalid_state');
      const stranger = await createCaller(app);
      assertError(
        await op(app, stranger, 'admin.apiKeys.revoke', { id: key.id, expectedRevision: 2 }),
        404,
        'not_found',
      );
      const audit = await auditRows(app, admin.organizationId, key.id);
      assert.deepEqual(
        audit.map((r) => [r.operation, r.before_revision, r.after_revision]),
        [
          ['admin.apiKeys.create', null, 1],
          ['admin.apiKeys.revoke', 1, 2],
        ],
      );
    });

    it('is not an MCP tool: the key in clear stays out of a model context', async () => {
      const { mcpToolName } = await import('../../../src/operations/define.ts');
      const { findOperation } = await import('../../../src/operations/catalog.ts');
      const operation = findOperation('admin.apiKeys.create');
      assert.ok(operation);
      assert.equal(mcpToolName(operation), undefined);
      const list = findOperation('admin.apiKeys.list');
      assert.ok(list);
      assert.equal(mcpToolName(list), 'accounting_admin_api_keys_list');
    });
  });
}
