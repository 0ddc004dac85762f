import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { RateLimiter } from '../../src/lib/rate-limit.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { call } from '../support/http.ts';

/** Per-credential token bucket: 429 with Retry-After and the IETF RateLimit headers. */

describe('rate limiter (unit, explicit time)', () => {
  it('refills continuously and tells exactly when the next request is allowed', () => {
    const limiter = new RateLimiter({ requests: 2, windowMs: 60_000 });
    const t0 = 1_000_000;
    assert.equal(limiter.take('k', t0).remaining, 1);
    assert.equal(limiter.take('k', t0).remaining, 0);
    const refused = limiter.take('k', t0);
    assert.equal(refused.retryAfterSeconds, 30);
    assert.equal(limiter.take('other', t0).retryAfterSeconds, undefined, 'buckets are per credential');
    assert.equal(limiter.take('k', t0 + 29_000).retryAfterSeconds, 1);
    const later = limiter.take('k', t0 + 30_000);
    assert.equal(later.retryAfterSeconds, undefined);
    assert.equal(later.remaining, 0);
  });

  it('defaults to 600 requests a minute and refuses malformed settings', () => {
    assert.deepEqual(loadConfig({}).rateLimit, { requests: 600, windowMs: 60_000 });
    assert.deepEqual(loadConfig({ ACCOUNTING_RATE_LIMIT: '5/10s' }).rateLimit, {
      requests: 5,
      windowMs: 10_000,
    });
    for (const bad of ['0/1m', '10', '10/0s', 'ten/1m', '10/1w']) {
      assert.throws(() => loadConfig({ ACCOUNTING_RATE_LIMIT: bad }), /ACCOUNTING_RATE_LIMIT/, bad);
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`rate limit over HTTP (${dialect})`, () => {
    let app: TestApp;
    let first: Caller;
    let second: Caller;
    before(async () => {
      // 3 requests per hour: no refill can happen while the test runs.
      app = await startTestApp(dialect, { env: { ACCOUNTING_RATE_LIMIT: '3/1h' } });
      first = await createCaller(app);
      second = await createCaller(app);
    });
    after(() => app?.close());

    it('answers 429 with Retry-After and RateLimit headers once the credential used its quota', async () => {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await call(app.baseUrl, 'contractors.list', {}, { token: first.token });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('ratelimit-policy'), '"default";q=3;w=3600');
        remaining.push(res.headers.get('ratelimit') ?? '');
      }
      assert.deepEqual(
        remaining.map((value) => /r=(\d+)/.exec(value)?.[1]),
        ['2', '1', '0'],
      );
      const refused = await call(app.baseUrl, 'contractors.create', {}, { token: first.token });
      assertError(refused, 429, 'rate_limited', 'over quota');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 1200, `Retry-After ${retryAfter}`);
      assert.match(refused.headers.get('ratelimit') ?? '', /^"default";r=0;t=\d+$/);
      // Another credential has its own bucket.
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: second.token })).status, 200);
    });

    it('does not spend the quota on requests refused before the credential is known', async () => {
      const fresh = await createCaller(app);
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: null })).status, 401);
      }
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: fresh.token })).status, 200);
    });
  });
}
