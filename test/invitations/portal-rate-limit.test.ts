import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientKey } from '../../src/http/portal-routes.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

describe('portal rate limit key', () => {
  it('is the IPv4 address, or the /64 of an IPv6 address', () => {
    assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
    assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
  });
});

for (const dialect of DIALECTS) {
  describe(`portal rate limit (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_PORTAL_RATE_LIMIT: '3/1m' } });
    });
    after(() => app.close());

    it('answers 429 with Retry-After once an address exceeds the limit; the API is not affected', async () => {
      const page = `${app.baseUrl}/portal/invitations/${'x'.repeat(43)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(page)).status);
      assert.deepEqual(statuses, [404, 404, 404]);
      // Accepting counts against the same budget.
      const refused = await fetch(`${page}/accept`, { method: 'POST' });
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.ok(refused.headers.get('x-request-id'));
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      assert.match(await refused.text(), /Too many requests/);
      assert.equal((await fetch(page)).status, 429);

      const caller = await createCaller(app);
      const api = await call(app.baseUrl, 'contractors.list', {}, { token: caller.token });
      assert.equal(api.status, 200);
    });
  });
}
