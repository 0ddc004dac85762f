import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RedisRateLimiter } from '../../src/db/redis-rate-limit.ts';
import { runCli, type ServeProcess, startServe } from '../support/processes.ts';

/** The Redis the tests use (REDIS_URL in CI); set TEST_REDIS_URL=off to skip where there is none. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const skip = REDIS_URL === 'off';

describe('the credential rate limit in Redis (REDIS_URL)', { skip }, () => {
  it('two limiters with their own connections share one bucket: the limit in total', async () => {
    const settings = { requests: 20, windowMs: 3_600_000 };
    const prefix = `accounting-test:${process.pid}:${Date.now()}:`;
    const a = new RedisRateLimiter(REDIS_URL, settings, prefix);
    const b = new RedisRateLimiter(REDIS_URL, settings, prefix);
    try {
      const states = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('credential-1')),
      );
      assert.equal(states.filter((s) => s.retryAfterSeconds === undefined).length, 20);
      const refused = states.filter((s) => s.retryAfterSeconds !== undefined);
      assert.equal(refused.length, 20);
      // 20 an hour: one token every 180 s.
      for (const state of refused)
        assert.ok((state.retryAfterSeconds ?? 0) > 170, String(state.retryAfterSeconds));
      assert.equal((await a.take('credential-2')).remaining, 19, 'buckets are per credential');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a store that cannot be reached is 503 service_unavailable, not a hang', async () => {
    const limiter = new RedisRateLimiter('redis://127.0.0.1:1', { requests: 5, windowMs: 60_000 });
    try {
      await assert.rejects(limiter.take('k'), { code: 'service_unavailable' });
    } finally {
      await limiter.close().catch(() => {});
    }
  });

  describe('two real serve processes on SQLite with REDIS_URL', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-redis-'));
    const servers: ServeProcess[] = [];
    let apiKey = '';
    before(async () => {
      const init = await runCli(['init', '--json'], { ACCOUNTING_DATA_DIR: dataDir });
      assert.equal(init.code, 0, init.stderr);
      apiKey = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
      const env = { ACCOUNTING_DATA_DIR: dataDir, ACCOUNTING_RATE_LIMIT: '20/1h', REDIS_URL };
      servers.push(...(await Promise.all([startServe(env), startServe(env)])));
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('allows the limit in total across both (in-process buckets would allow twice as many)', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const server = servers[i % 2];
          assert.ok(server);
          const res = await fetch(`${server.baseUrl}/api/v1/accounting/contractors.list`, {
            headers: { authorization: `Bearer ${apiKey}` },
          });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 20, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 20);
    });
  });
});
