import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UNAUTHENTICATED_BODY_LIMIT } from '../../src/http/body-limits.ts';
import { upload } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { partialRequest } from '../support/partial-request.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from '../web/dashboard-client.ts';

/**
 * Issue 31 part 2: bodies after identity. Every request below announces (or streams) more body
 * than it sends and never finishes; getting an answer at all proves the server decided from the
 * headers (or from the bytes within the limit) without buffering the body.
 */
const MiB = 1024 * 1024;
const FIVE_MIB = 5 * MiB;

for (const dialect of DIALECTS) {
  describe(`request bodies are read only after the caller is known (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let admin: Caller;
    let client: PageClient;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      client = new PageClient(app);
      await client.signIn(smtp, email);
    });
    after(async () => {
      await app?.close();
      await smtp?.close();
    });

    const json = { 'content-type': 'application/json' };

    it('answers an unauthenticated 5 MiB upload 401 before its body has arrived (API, declared or chunked)', async () => {
      for (const contentLength of [FIVE_MIB, undefined]) {
        for (const authorization of [undefined, 'Bearer ak_nope_nope']) {
          const answer = await partialRequest(app.baseUrl, {
            path: '/api/v1/accounting/receipts.upload',
            headers: { ...json, ...(authorization ? { authorization } : {}) },
            ...(contentLength === undefined ? {} : { contentLength }),
            send: 256 * 1024,
          });
          const label = `${contentLength ?? 'chunked'} ${authorization ?? 'no credential'}`;
          assert.equal(answer.status, 401, label);
          const error = JSON.parse(answer.body).error;
          assert.equal(error.code, authorization ? 'invalid_credential' : 'missing_credential', label);
          assert.match(answer.headers['x-request-id'] ?? '', /^req_/);
        }
      }
    });

    it('answers an unauthenticated 5 MiB MCP request 401 with its challenge before the body has arrived', async () => {
      for (const contentLength of [FIVE_MIB, undefined]) {
        const answer = await partialRequest(app.baseUrl, {
          path: '/mcp',
          headers: { ...json, accept: 'application/json, text/event-stream' },
          ...(contentLength === undefined ? {} : { contentLength }),
          send: 256 * 1024,
        });
        assert.equal(answer.status, 401);
        assert.equal(JSON.parse(answer.body).error.code, 'missing_credential');
        assert.match(answer.headers['www-authenticate'] ?? '', /^Bearer resource_metadata=/);
      }
    });

    it('sends a dashboard action without a session to sign in before its body has arrived', async () => {
      for (const contentLength of [FIVE_MIB, undefined]) {
        const answer = await partialRequest(app.baseUrl, {
          path: '/dashboard/actions/receipts.upload',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          ...(contentLength === undefined ? {} : { contentLength }),
          send: 256 * 1024,
        });
        assert.equal(answer.status, 303);
        assert.equal(answer.headers.location, '/dashboard/sign-in');
      }
    });

    it(`holds any other route to ${UNAUTHENTICATED_BODY_LIMIT} bytes, naming the limit`, async () => {
      for (const contentLength of [FIVE_MIB, undefined]) {
        const answer = await partialRequest(app.baseUrl, {
          path: '/no/such/route',
          headers: json,
          ...(contentLength === undefined ? {} : { contentLength }),
          send: 256 * 1024,
        });
        assert.equal(answer.status, 413, answer.body);
        const error = JSON.parse(answer.body).error;
        assert.equal(error.code, 'payload_too_large');
        assert.equal(error.limit_bytes, UNAUTHENTICATED_BODY_LIMIT);
        assert.match(error.message, /16384 bytes \(16 KiB\)/);
      }
    });

    it("refuses an authenticated body over the operation's limit with 413 naming it, declared or chunked", async () => {
      for (const contentLength of [2 * MiB, undefined]) {
        const answer = await partialRequest(app.baseUrl, {
          path: '/api/v1/accounting/contractors.create',
          headers: {
            ...json,
            authorization: `Bearer ${admin.token}`,
            'idempotency-key': `big-${contentLength}`,
          },
          ...(contentLength === undefined ? {} : { contentLength }),
          // Chunked: past the 1 MiB limit, and still unfinished.
          send: contentLength === undefined ? MiB + 128 * 1024 : 64 * 1024,
        });
        assert.equal(answer.status, 413, answer.body);
        const error = JSON.parse(answer.body).error;
        assert.equal(error.code, 'payload_too_large');
        assert.equal(error.limit_bytes, MiB);
        assert.match(error.message, /contractors\.create accepts at most 1048576 bytes \(1 MiB\)/);
      }
      // An upload operation has its own, larger limit: 15 MiB for receipts.
      const receipts = await partialRequest(app.baseUrl, {
        path: '/api/v1/accounting/receipts.upload',
        headers: { ...json, authorization: `Bearer ${admin.token}` },
        contentLength: 16 * MiB,
        send: 0,
      });
      assert.equal(receipts.status, 413);
      assert.equal(JSON.parse(receipts.body).error.limit_bytes, 15 * MiB);
    });

    it('refuses a signed-in member a form over the action limit with the failure page, declared or chunked', async () => {
      for (const contentLength of [MiB, undefined]) {
        const answer = await partialRequest(app.baseUrl, {
          path: '/dashboard/actions/contractors.create',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: client.cookie },
          ...(contentLength === undefined ? {} : { contentLength }),
          send: contentLength === undefined ? 128 * 1024 : 1024,
        });
        assert.equal(answer.status, 413, answer.body);
        assert.match(answer.headers['content-type'] ?? '', /^text\/html/);
        // Worded for people (decision 481): the limit in KiB, not the operation's byte count.
        assert.match(answer.body, /too large for this form \(at most 64 KiB\)/);
        assert.match(answer.body, /payload_too_large/);
      }
    });

    it('still takes normal bodies: an upload, a chunked call, MCP and a dashboard form', async () => {
      const receipt = ublReceipt({
        id: 'R-1',
        merchant: 'Body GmbH',
        date: '2026-11-02',
        amountMinor: 2380n,
      });
      const uploaded = await upload(app, admin, receipt, 'r.xml', 'application/xml');
      assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));

      const chunked = await fetch(`${app.baseUrl}/api/v1/accounting/contractors.list`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${admin.token}` },
        body: new Blob(['{"limit":', '5}']).stream(),
        duplex: 'half',
      } as RequestInit);
      assert.equal(chunked.status, 200, await chunked.clone().text());

      const mcp = await fetch(`${app.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          ...json,
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${admin.token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
      assert.equal(mcp.status, 200, await mcp.clone().text());

      const page = await (await client.get('/dashboard/accounts')).text();
      const created = await client.post('/dashboard/actions/accounts.create', {
        _csrf: PageClient.csrfOf(page),
        _back: '/dashboard/accounts',
        idempotencyKey: 'body-account',
        name: 'Body checking',
        kind: 'checking',
        currency: 'EUR',
      });
      assert.equal(created.status, 303, await created.text());
    });

    it('sends a portal form without a contractor session to sign in before its body has arrived', async () => {
      const answer = await partialRequest(app.baseUrl, {
        path: '/portal/hours',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        contentLength: 8 * 1024,
        send: 1024,
      });
      assert.equal(answer.status, 303);
      assert.match(answer.headers.location ?? '', /^\/portal\/sign-in/);
    });

    it('invites the body (100 Continue) only once the caller is known and the size accepted', async () => {
      const expect = { expect: '100-continue' };
      const first = (path: string, headers: Record<string, string>, contentLength: number) =>
        partialRequest(app.baseUrl, { path, headers: { ...expect, ...headers }, contentLength, send: 0 });
      // Strangers and refusals get their final answer at once: the client never sends the body.
      assert.equal((await first('/api/v1/accounting/receipts.upload', json, FIVE_MIB)).status, 401);
      assert.equal((await first('/mcp', json, FIVE_MIB)).status, 401);
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      assert.equal((await first('/dashboard/actions/receipts.upload', form, FIVE_MIB)).status, 303);
      assert.equal((await first('/portal/hours', form, 8 * 1024)).status, 303);
      const bearer = { ...json, authorization: `Bearer ${admin.token}` };
      const tooLarge = await first('/api/v1/accounting/contractors.create', bearer, 2 * MiB);
      assert.equal(tooLarge.status, 413, tooLarge.body);
      // A known caller within the limit is asked to go on.
      assert.equal((await first('/api/v1/accounting/receipts.upload', bearer, 1024)).status, 100);
    });

    it('answers a client that sends all 5 MiB without a credential with a readable 401', async () => {
      const res = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        { token: null, rawBody: Buffer.alloc(FIVE_MIB, 0x20) },
      );
      assert.equal(res.status, 401);
      assert.equal(res.error.code, 'missing_credential');
    });
  });
}
