import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AccountingConnectionError,
  AccountingError,
  createAccountingClient,
  verifySignature,
} from '../../sdk/client.ts';
import { findOperation } from '../../src/operations/catalog.ts';
import { signPayload } from '../../src/webhooks/signature.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { addCaller } from '../support/factories.ts';
import { openApiCheckedFetch } from '../support/http.ts';

/**
 * A real HTTP peer on loopback whose answers the test scripts, for the failures a healthy
 * service rarely gives on demand (429 with Retry-After, 503, dropped connections).
 */
type Step = (request: IncomingMessage, response: ServerResponse) => void;
interface Scripted {
  url: string;
  requests: Array<{ headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

async function scriptedServer(steps: Step[]): Promise<Scripted> {
  const requests: Scripted['requests'] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      requests.push({ headers: request.headers, body });
      const step = steps[Math.min(requests.length - 1, steps.length - 1)];
      step?.(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_request, response) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': 'req_test',
      ...headers,
    });
    response.end(JSON.stringify(body));
  };
const drop: Step = (request) => request.socket.destroy();
const error = (code: string) => ({ error: { code, message: code, request_id: 'req_test' } });
const contractor = { data: { id: 'c1', display_name: 'Ada' } };
const create = { displayName: 'Ada', legalName: 'Ada L', email: 'ada@example.com' };

describe('the client folder stands alone', () => {
  it('imports nothing outside sdk/ except Node built-ins (sdk/generate.ts, a dev tool, aside)', () => {
    const dir = path.join(import.meta.dirname, '../../sdk');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'generate.ts')) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const [, from] of text.matchAll(/from '([^']+)'/g)) {
        assert.ok(from?.startsWith('./') || from?.startsWith('node:'), `${file} imports ${from}`);
      }
    }
  });
});

describe('typed client: retries and errors (scripted loopback peer)', () => {
  it('retries a 429 after Retry-After with the same idempotency key', async () => {
    const peer = await scriptedServer([
      json(429, error('rate_limited'), { 'retry-after': '0' }),
      json(200, contractor),
    ]);
    try {
      const client = createAccountingClient({ baseUrl: peer.url, apiKey: 'ak_test' });
      const result = await client.call('contractors.create', create);
      assert.deepEqual(result, contractor.data);
      assert.equal(peer.requests.length, 2);
      const [first, second] = peer.requests;
      assert.equal(first?.headers.authorization, 'Bearer ak_test');
      assert.match(String(first?.headers['idempotency-key']), /^sdk-[0-9a-f-]{36}$/);
      assert.equal(first?.headers['idempotency-key'], second?.headers['idempotency-key']);
      assert.equal(JSON.parse(String(first?.body)).idempotencyKey, first?.headers['idempotency-key']);
    } finally {
      await peer.close();
    }
  });

  it('does not wait for a Retry-After longer than allowed: the typed error is thrown at once', async () => {
    const peer = await scriptedServer([
      json(429, error('invitation_limit_reached'), { 'retry-after': '3600' }),
    ]);
    try {
      const client = createAccountingClient({ baseUrl: peer.url, apiKey: 'ak_test' });
      const failure = await client.call('contractors.create', create).catch((e: unknown) => e);
      assert.ok(failure instanceof AccountingError);
      assert.equal(failure.code, 'invitation_limit_reached');
      assert.equal(failure.status, 429);
      assert.equal(failure.retryAfterSeconds, 3600);
      assert.equal(failure.requestId, 'req_test');
      assert.equal(peer.requests.length, 1);
    } finally {
      await peer.close();
    }
  });

  it('retries dropped connections and 503 (every call is idempotent), then gives up with a typed error', async () => {
    const flaky = await scriptedServer([
      drop,
      json(503, error('service_unavailable'), { 'retry-after': '0' }),
      json(200, contractor),
    ]);
    try {
      const client = createAccountingClient({ baseUrl: flaky.url, apiKey: 'ak_test', retryDelayMs: 1 });
      assert.deepEqual(await client.call('contractors.create', create), contractor.data);
      assert.equal(flaky.requests.length, 3);
      const keys = new Set(flaky.requests.map((request) => request.headers['idempotency-key']));
      assert.equal(keys.size, 1, 'one key across every attempt');
    } finally {
      await flaky.close();
    }
    const dead = await scriptedServer([drop]);
    try {
      const client = createAccountingClient({
        baseUrl: dead.url,
        apiKey: 'ak_test',
        retryDelayMs: 1,
        maxRetries: 2,
      });
      await assert.rejects(client.call('contractors.list'), AccountingConnectionError);
      assert.equal(dead.requests.length, 3);
    } finally {
      await dead.close();
    }
  });

  it('does not retry a refusal that a retry cannot fix', async () => {
    const peer = await scriptedServer([
      json(400, { error: { ...error('invalid_input').error, field: 'email' } }),
    ]);
    try {
      const client = createAccountingClient({ baseUrl: peer.url, apiKey: 'ak_test' });
      const failure = await client.call('contractors.create', create).catch((e: unknown) => e);
      assert.ok(failure instanceof AccountingError);
      assert.equal(failure.field, 'email');
      assert.equal(peer.requests.length, 1);
    } finally {
      await peer.close();
    }
  });

  it('walks cursor pages until nextCursor is null', async () => {
    const peer = await scriptedServer([
      json(200, { data: { items: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' } }),
      json(200, { data: { items: [{ id: 'c' }], nextCursor: null } }),
    ]);
    try {
      const client = createAccountingClient({ baseUrl: peer.url, apiKey: 'ak_test' });
      const ids: string[] = [];
      for await (const event of client.paginate('webhooks.events.list', { limit: 2 })) ids.push(event.id);
      assert.deepEqual(ids, ['a', 'b', 'c']);
      assert.deepEqual(
        peer.requests.map((request) => JSON.parse(request.body)),
        [{ limit: 2 }, { limit: 2, cursor: 'c1' }],
      );
      assert.equal(peer.requests[0]?.headers['idempotency-key'], undefined, 'reads carry no key');
    } finally {
      await peer.close();
    }
  });

  it('re-exports verifySignature for webhook receivers', () => {
    const body = '{"id":"evt_1"}';
    const now = 1_790_000_000;
    const header = signPayload('whsec_test-secret-0123456789', now, body);
    assert.equal(
      verifySignature({ payload: body, header, secret: 'whsec_test-secret-0123456789', now }).ok,
      true,
    );
    assert.equal(
      verifySignature({ payload: `${body} `, header, secret: 'whsec_test-secret-0123456789', now }).ok,
      false,
    );
  });
});

for (const dialect of DIALECTS) {
  describe(`typed client against a live server (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('creates with an automatic key, replays with an explicit one and reports typed errors', async () => {
      const client = createAccountingClient({
        baseUrl: app.baseUrl,
        apiKey: admin.token,
        fetch: openApiCheckedFetch,
      });
      const first = await client.request('contractors.create', { ...create, email: 'grace@example.com' });
      assert.equal(first.data.email, 'grace@example.com');
      assert.equal(first.replayed, false);
      assert.match(first.requestId ?? '', /^req_[0-9a-f]{32}$/);

      const input = { ...create, email: 'linus@example.com' };
      const once = await client.request('contractors.create', input, { idempotencyKey: 'sdk-test-replay-1' });
      const twice = await client.request('contractors.create', input, {
        idempotencyKey: 'sdk-test-replay-1',
      });
      assert.equal(twice.replayed, true);
      assert.deepEqual(twice.data, once.data);

      const failure = await client
        .call('contractors.get', { id: '01890a5d-ac96-774b-bcce-b302099a8057' })
        .catch((e: unknown) => e);
      assert.ok(failure instanceof AccountingError);
      assert.equal(failure.code, 'not_found');
      assert.equal(failure.status, 404);
      assert.match(failure.requestId ?? '', /^req_/);

      const reader = await addCaller(app, admin.organizationId, { scopes: ['accounting:read'] });
      const readOnly = createAccountingClient({
        baseUrl: app.baseUrl,
        apiKey: reader.token,
        fetch: openApiCheckedFetch,
      });
      const refused = await readOnly.call('contractors.create', create).catch((e: unknown) => e);
      assert.ok(refused instanceof AccountingError);
      assert.equal(refused.code, 'insufficient_scope');
    });

    it('iterates offset pages and cursor pages to the end, without repeats', async () => {
      const client = createAccountingClient({
        baseUrl: app.baseUrl,
        apiKey: admin.token,
        fetch: openApiCheckedFetch,
      });
      for (let i = 0; i < 5; i += 1) {
        await client.call('contractors.create', { ...create, email: `page-${i}@example.com` });
      }
      let pages = 0;
      for await (const page of client.pages('contractors.list', { limit: 2 })) {
        pages += 1;
        assert.ok(page.items.length <= 2);
      }
      const all = [];
      for await (const item of client.paginate('contractors.list', { limit: 2 })) all.push(item.id);
      assert.equal(all.length, 7, 'the five above and the two of the previous test');
      assert.equal(new Set(all).size, all.length);
      assert.equal(pages, 4);

      if (findOperation('webhooks.events.list')) {
        const events = [];
        for await (const event of client.paginate('webhooks.events.list', { limit: 2 }))
          events.push(event.id);
        assert.ok(events.length >= 7, `every contractor.created event (${events.length})`);
        assert.equal(new Set(events).size, events.length);
      }
    });
  });
}
