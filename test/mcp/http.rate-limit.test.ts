import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

function mcp(app: TestApp, token: string, body: Record<string, unknown>) {
  return fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
  });
}

const TOOLS_CALL = {
  method: 'tools/call',
  params: { name: 'accounting_contractors_list', arguments: {} },
};

for (const dialect of DIALECTS) {
  describe(`one request limit per key, whatever the door (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      // A window so long that no token comes back during the test.
      app = await startTestApp(dialect, { env: { ACCOUNTING_RATE_LIMIT: '3/1h' } });
    });
    after(() => app.close());

    it('a key limited on the API gets 429 with Retry-After over MCP too', async () => {
      const key: Caller = await createCaller(app);
      for (let i = 0; i < 3; i += 1) {
        const res = await call(app.baseUrl, 'contractors.list', {}, { token: key.token, method: 'GET' });
        assert.equal(res.status, 200);
      }
      const api = await call(app.baseUrl, 'contractors.list', {}, { token: key.token, method: 'GET' });
      assert.equal(api.status, 429);
      const res = await mcp(app, key.token, TOOLS_CALL);
      const text = await res.text();
      assert.equal(res.status, 429, text);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'rate_limited');
      assert.doesNotMatch(text, /"items"/, 'no data');
    });

    it('MCP requests use up the same allowance the API then lacks', async () => {
      const key: Caller = await createCaller(app);
      const init = await mcp(app, key.token, {
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      assert.equal(init.status, 200);
      await init.text();
      const tool = await mcp(app, key.token, TOOLS_CALL);
      assert.equal(tool.status, 200);
      const body = await tool.text();
      assert.match(body, /structuredContent/, body);
      assert.match(tool.headers.get('ratelimit') ?? '', /r=1;/, 'a tool call counts once');
      await (await mcp(app, key.token, TOOLS_CALL)).text();
      const api = await call(app.baseUrl, 'contractors.list', {}, { token: key.token, method: 'GET' });
      assert.equal(api.status, 429);
      assert.ok(Number(api.headers.get('retry-after')) > 0);
    });
  });
}
