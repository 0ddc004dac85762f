import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`request metrics at /metrics (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const scrape = async () => (await fetch(`${app.baseUrl}/metrics`)).text();
    const sample = (text: string, series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };

    it('counts and times each API request by operation and status', async () => {
      const ok = 'accounting_http_requests_total{operation="contractors.list",status="200"}';
      const denied = 'accounting_http_requests_total{operation="contractors.list",status="401"}';
      const timed = 'accounting_http_request_duration_seconds_count{operation="contractors.list"}';
      const before = await scrape();
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: admin.token })).status, 200);
      }
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: null })).status, 401);
      const after = await scrape();
      assert.equal(sample(after, ok) - sample(before, ok), 3);
      assert.equal(sample(after, denied) - sample(before, denied), 1);
      assert.equal(sample(after, timed) - sample(before, timed), 4);
    });
  });
}
