import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { runCli, type ServeProcess, startServe } from '../support/processes.ts';

/**
 * Two real `serve` processes on one PostgreSQL database, one API key, 20 requests an hour: across
 * both processes exactly 20 requests get through (an hour makes refill negligible during the test).
 */
describe('the credential rate limit holds across processes (postgres)', {
  skip: !DIALECTS.includes('postgres'),
}, () => {
  let database: TestDatabase;
  const servers: ServeProcess[] = [];
  let apiKey = '';
  before(async () => {
    database = await createTestDatabase('postgres');
    const init = await runCli(['init', '--json'], database.env);
    assert.equal(init.code, 0, init.stderr);
    apiKey = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
    const env = { ...database.env, ACCOUNTING_RATE_LIMIT: '20/1h' };
    servers.push(...(await Promise.all([startServe(env), startServe(env)])));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  });

  it('allows the limit in total, not per process, and tells the rest when to retry', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const server = servers[i % 2];
        assert.ok(server);
        const res = await fetch(`${server.baseUrl}/api/v1/accounting/contractors.list`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        await res.arrayBuffer();
        if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) >= 1);
        return { process: i % 2, status: res.status };
      }),
    );
    const allowed = statuses.filter((s) => s.status === 200);
    const refused = statuses.filter((s) => s.status === 429);
    assert.equal(allowed.length, 20, JSON.stringify(statuses));
    assert.equal(refused.length, 20);
    // Both processes answered 429s: neither had a private allowance of its own.
    assert.ok(refused.some((s) => s.process === 0) && refused.some((s) => s.process === 1));
  });
});
