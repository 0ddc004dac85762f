import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.ts';
import { TestClock } from '../../../src/lib/clock.ts';
import { buildServer } from '../../../src/server.ts';
import { createServices } from '../../../src/services.ts';
import { loadSigningSecret } from '../../../src/webhooks/endpoint-secrets.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { createTestDatabase, DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { type ApiResponse, call } from '../../support/http.ts';
import type { Endpoint } from '../../webhooks/endpoint-helpers.ts';

const OPERATOR_KEY = 'test-operator-key-0123456789abcdefghijklmnop';
const SEALED = /^v1\.env-[0-9a-f]{12}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Like startTestApp, with every log line (trace level) kept in memory, and an operator key. */
async function startLoggedApp(dialect: (typeof DIALECTS)[number]) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const database = await createTestDatabase(dialect);
  const config = loadConfig({
    LOG_LEVEL: 'trace',
    ACCOUNTING_RATE_LIMIT: '100000/1m',
    ACCOUNTING_SECRET_KEY: OPERATOR_KEY,
  });
  const clock = new TestClock();
  const services = await createServices(config, {
    db: database.db,
    clock,
    logger: pino({ level: 'trace' }, sink),
  });
  const server: FastifyInstance = await buildServer(services);
  const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  // Only the fields these tests read (baseUrl, services, clock).
  const app = { dialect, baseUrl, services, clock, database, server } as unknown as TestApp;
  const close = async () => {
    await server.close();
    await database.drop();
  };
  return { app, lines, close };
}

for (const dialect of DIALECTS) {
  describe(`webhook signing secrets (${dialect})`, () => {
    let harness: Awaited<ReturnType<typeof startLoggedApp>>;
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      harness = await startLoggedApp(dialect);
      app = harness.app;
      admin = await createCaller(app);
    });
    after(() => harness.close());
    const op = (name: string, input: Record<string, unknown>, options: { idempotencyKey?: string } = {}) =>
      call(app.baseUrl, name, input, { token: admin.token, ...options });

    async function dumpTables(): Promise<Record<string, string>> {
      const dump: Record<string, string> = {};
      const { kysely } = app.services.db;
      for (const table of [
        'webhook_endpoints',
        'webhook_deliveries',
        'events',
        'audit_log',
        'mail_outbox',
        'idempotency_keys',
      ] as const) {
        dump[table] = JSON.stringify(await kysely.selectFrom(table).selectAll().execute());
      }
      return dump;
    }

    it('shows the secret once: never in any other response, event, log line or table in clear', async () => {
      const created = await op('webhooks.endpoints.create', {
        url: 'https://hooks.example.com/in',
        events: ['*'],
      });
      assert.equal(created.status, 200);
      const { endpoint, secret } = created.data as { endpoint: Endpoint; secret: string };
      const rotated = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 1,
        idempotencyKey: `rotate-${endpoint.id}`,
      });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const newSecret = rotated.data.secret as string;
      const others: ApiResponse[] = [
        await op('webhooks.endpoints.get', { id: endpoint.id }),
        await op('webhooks.endpoints.list', { includeArchived: true }),
        await op('webhooks.endpoints.update', { id: endpoint.id, expectedRevision: 2, description: 'd' }),
        await op('webhooks.endpoints.test', { id: endpoint.id }),
        await op('webhooks.events.list', { limit: 100 }),
        await op('webhooks.endpoints.archive', { id: endpoint.id, expectedRevision: 3 }),
      ];
      const [firstEvent] = (others[4]?.data.items as Array<{ id: string }>) ?? [];
      others.push(await op('webhooks.events.get', { id: String(firstEvent?.id) }));
      for (const res of others) assert.equal(res.status, 200, JSON.stringify(res.body));
      const responses = others.map((res) => JSON.stringify(res.body)).join('\n');
      const tables = await dumpTables();
      const logs = harness.lines.join('');
      assert.ok(logs.includes('"request"'), 'the log sink received the request lines');
      for (const value of [secret, newSecret]) {
        const body = value.slice('whsec_'.length);
        assert.ok(!responses.includes(body), 'secret in a later response');
        assert.ok(!logs.includes(body), 'secret in a log line');
        for (const [table, text] of Object.entries(tables)) {
          assert.ok(!text.includes(body), `secret in ${table}`);
        }
      }
      // The stored replay of create/rotate is sealed like the endpoint's secret, and opens to replay.
      assert.match(tables.idempotency_keys ?? '', /"sealed\\?":\\?"v1\./);
      const replayed = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 1,
        idempotencyKey: `rotate-${endpoint.id}`,
      });
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replayed.body, rotated.body);
      const row = await app.services.db.kysely
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      assert.match(row.secret, SEALED);
      assert.equal(await loadSigningSecret(app.services.db.kysely, row, OPERATOR_KEY), newSecret);
    });

    it('a replay sealed under a key the server no longer has is 409 replay_unavailable, not a 500', async () => {
      const input = { url: 'https://rekeyed.example.com/in', events: ['*'] };
      const first = await op('webhooks.endpoints.create', input, { idempotencyKey: 'create-rekeyed-0001' });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      // The same database served with another ACCOUNTING_SECRET_KEY (an operator rotated it).
      const services = await createServices(
        loadConfig({ LOG_LEVEL: 'silent', ACCOUNTING_SECRET_KEY: `${OPERATOR_KEY}-rotated` }),
        { db: app.services.db, clock: app.clock, logger: pino({ level: 'silent' }) },
      );
      const server = await buildServer(services);
      try {
        const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
        const again = await call(baseUrl, 'webhooks.endpoints.create', input, {
          token: admin.token,
          idempotencyKey: 'create-rekeyed-0001',
        });
        assertError(again, 409, 'replay_unavailable');
        // The key came in the header, so the error names the header (issue 27).
        assert.equal(again.error.field, 'Idempotency-Key');
      } finally {
        await server.close();
      }
    });

    it('replays create with the same endpoint and secret, creating nothing new', async () => {
      const input = { url: 'https://replay.example.com/in', events: ['invoice.*'] };
      const first = await op('webhooks.endpoints.create', input, { idempotencyKey: 'create-replay-0001' });
      const again = await op('webhooks.endpoints.create', input, { idempotencyKey: 'create-replay-0001' });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      const rows = await app.services.db.kysely
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('url', '=', 'https://replay.example.com/in')
        .execute();
      assert.equal(rows.length, 1);
      const changed = await op(
        'webhooks.endpoints.create',
        { ...input, events: ['*'] },
        { idempotencyKey: 'create-replay-0001' },
      );
      assertError(changed, 400, 'idempotency_key_reused');
    });

    it('rotates: new secret once, secret_version and revision +1, the old one stops signing', async () => {
      const created = await op('webhooks.endpoints.create', {
        url: 'https://rotate.example.com/in',
        events: ['*'],
      });
      const { endpoint, secret } = created.data as { endpoint: Endpoint; secret: string };
      app.clock.advance(1000);
      const key = `rotate-once-${endpoint.id}`;
      const res = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 1,
        idempotencyKey: key,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const rotated = res.data as { endpoint: Endpoint; secret: string };
      assert.notEqual(rotated.secret, secret);
      assert.match(rotated.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(rotated.endpoint.secret_version, 2);
      assert.equal(rotated.endpoint.revision, 2);
      assert.equal(rotated.endpoint.secret_hint, `whsec_…${rotated.secret.slice(-4)}`);
      assert.equal(rotated.endpoint.updated_at, app.clock.now().toISOString());
      const row = await app.services.db.kysely
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      assert.equal(await loadSigningSecret(app.services.db.kysely, row, OPERATOR_KEY), rotated.secret);
      // Same key: the same answer, no second rotation.
      const replay = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 1,
        idempotencyKey: key,
      });
      assert.deepEqual(replay.body, res.body);
      // A stale revision is a conflict; the body idempotencyKey is required (the header alone is not enough).
      const stale = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 1,
        idempotencyKey: `${key}-2`,
      });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      const headerOnly = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: 2,
      });
      assertError(headerOnly, 400, 'invalid_input');
      assert.equal(headerOnly.error.field, 'idempotencyKey');
      const events = await op('webhooks.events.list', { type: 'webhook.endpoint.secret_rotated' });
      const items = events.data.items as Array<{ subject: { id: string }; data: Record<string, unknown> }>;
      const mine = items.filter((e) => e.subject.id === endpoint.id);
      assert.equal(mine.length, 1);
      assert.deepEqual(mine[0]?.data, { url: 'https://rotate.example.com/in', secretVersion: 2 });
    });
  });
}
