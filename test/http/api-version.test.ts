import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../src/contract/version.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`X-Accounting-API-Version pinning (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('serves a request pinned to the current contract date', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: admin.token, headers: { 'x-accounting-api-version': API_VERSION } },
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION);
    });

    it('refuses an unknown date with 400 naming the supported dates, before the credential', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: null, headers: { 'x-accounting-api-version': '2025-01-01' } },
      );
      assert.equal(res.status, 400);
      assert.equal(res.error.code, 'unsupported_api_version');
      assert.deepEqual(res.error.supported_versions, [API_VERSION]);
      assert.match(res.error.message, new RegExp(API_VERSION));
      assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION);
    });

    it('leaves the health endpoint alone', async () => {
      const res = await fetch(`${app.baseUrl}/healthz`, {
        headers: { 'x-accounting-api-version': 'nonsense' },
      });
      assert.equal(res.status, 200);
    });
  });
}
