import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setMemberStatus } from '../../src/admin/organizations.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { addCaller } from '../support/factories.ts';
import { call } from '../support/http.ts';
import { callTool, connectHttp, toolKey } from './helpers.ts';
import { defineMcpSuite } from './suite.ts';

defineMcpSuite('http');

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(app: TestApp, headers: Record<string, string>) {
  return fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: INITIALIZE,
  });
}

for (const dialect of DIALECTS) {
  describe(`MCP Streamable HTTP endpoint (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_RATE_LIMIT: '4/1m' } });
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('answers 401 with a WWW-Authenticate challenge naming the protected-resource metadata', async () => {
      const missing = await post(app, {});
      assert.equal(missing.status, 401);
      assert.equal(
        missing.headers.get('www-authenticate'),
        `Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`,
      );
      assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'missing_credential');
      const wrong = await post(app, { authorization: `Bearer ${admin.token.slice(0, -3)}abc` });
      assert.equal(wrong.status, 401);
      assert.match(
        wrong.headers.get('www-authenticate') ?? '',
        /resource_metadata=".*", error="invalid_token"/,
      );
    });

    it('serves the RFC 9728 protected-resource metadata without a credential', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const response = await fetch(`${app.baseUrl}${path}`);
        assert.equal(response.status, 200);
        const metadata = (await response.json()) as Record<string, unknown>;
        assert.equal(metadata.resource, `${app.baseUrl}/mcp`);
        assert.deepEqual(metadata.bearer_methods_supported, ['header']);
        assert.deepEqual(metadata.scopes_supported, [
          'accounting:read',
          'accounting:write',
          'accounting:admin',
        ]);
      }
    });

    it('refuses an inactive member and a foreign web origin with 403', async () => {
      const member = await addCaller(app, admin.organizationId);
      await setMemberStatus(app.services.db.kysely, app.clock, {
        organizationId: admin.organizationId,
        memberId: member.memberId,
        status: 'suspended',
      });
      const suspended = await post(app, { authorization: `Bearer ${member.token}` });
      assert.equal(suspended.status, 403);
      assert.equal(
        ((await suspended.json()) as { error: { code: string } }).error.code,
        'membership_inactive',
      );
      const foreign = await post(app, {
        authorization: `Bearer ${admin.token}`,
        origin: 'https://evil.example',
      });
      assert.equal(foreign.status, 403);
      assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
      const local = await post(app, {
        authorization: `Bearer ${admin.token}`,
        origin: 'http://localhost:3000',
      });
      assert.equal(local.status, 200);
    });

    it('shares the rate limit with the HTTP API: tool calls and API calls drain one bucket', async () => {
      const caller = await addCaller(app, admin.organizationId);
      const connection = await connectHttp(app, caller.token);
      try {
        const tool = await callTool(connection.client, 'accounting_contractors_list', {});
        assert.equal(tool.isError, false, tool.text);
        // Every MCP request (initialize, the tool call) drained the key's bucket of 4: the API
        // gets fewer than 4 calls before its 429.
        let apiCalls = 0;
        while ((await call(app.baseUrl, 'contractors.list', {}, { token: caller.token })).status === 200)
          apiCalls += 1;
        assert.ok(apiCalls < 3, `the API had ${apiCalls} calls left`);
        // Limited, MCP answers with the transport's error: HTTP 429 rate_limited (issue 31 part 6).
        await assert.rejects(
          callTool(connection.client, 'accounting_contractors_create', {
            displayName: 'Ed',
            legalName: 'Ed E',
            email: `${toolKey('rate')}@example.com`,
            idempotencyKey: toolKey('rate'),
          }),
          (error: unknown) => /429|rate_limited/.test(String(error)),
        );
      } finally {
        await connection.close();
      }
    });
  });
}
