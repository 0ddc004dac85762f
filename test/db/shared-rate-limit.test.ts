import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { createCredentialRateLimiter } from '../../src/db/shared-rate-limit.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

/**
 * A busy process reserves several tokens of a shared bucket in one statement (decision 274): two
 * limiters on one PostgreSQL database (two processes' worth of connections) together still admit
 * no more than the limit, and at most a few reserved tokens short of it.
 */
describe('shared rate limit with reservations (postgres)', { skip: !DIALECTS.includes('postgres') }, () => {
  let database: TestDatabase;
  let second: Db;
  before(async () => {
    database = await createTestDatabase('postgres');
    second = openDatabase({
      databaseUrl: database.url,
      dataDir: database.env.ACCOUNTING_DATA_DIR,
      poolSize: 2,
    });
  });
  after(async () => {
    await second.close();
    await database.drop();
  });

  it('never admits more than the limit across processes, and reserves ahead when busy', async () => {
    // 400 in a thousand hours: no refill during the test; a process may reserve up to 4 at once,
    // and (for the test) a reservation does not lapse however slow the machine.
    const settings = { requests: 400, windowMs: 1_000 * 3_600_000, reserveMs: 3_600_000 };
    const limiters = [
      createCredentialRateLimiter(database.db, settings),
      createCredentialRateLimiter(second, settings),
    ];
    let allowed = 0;
    let refused = 0;
    for (let round = 0; round < 300; round += 1) {
      const states = await Promise.all(
        limiters.flatMap((limiter) => [limiter.take('key-1'), limiter.take('key-1')]),
      );
      for (const state of states) {
        if (state.retryAfterSeconds === undefined) {
          allowed += 1;
          assert.ok(state.remaining >= 0 && state.remaining <= 400);
        } else {
          refused += 1;
          assert.ok(state.retryAfterSeconds >= 1);
        }
      }
    }
    assert.equal(allowed + refused, 1200);
    assert.ok(allowed <= 400, `admitted ${allowed}`);
    // Nothing lapses here, so every reserved token was spent: exactly the limit.
    assert.equal(allowed, 400);
  });

  it('reserves ahead for a busy credential: fewer statements than requests', async () => {
    const settings = { requests: 400, windowMs: 1_000 * 3_600_000, reserveMs: 3_600_000 };
    const limiter = createCredentialRateLimiter(database.db, settings);
    const granted: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      await limiter.take('key-3');
      const row = await database.db.kysely
        .selectFrom('rate_limit_buckets')
        .select(['granted', 'tokens'])
        .where('bucket', '=', 'key-3')
        .executeTakeFirstOrThrow();
      granted.push(Number(row.granted));
    }
    // 1, then 2, then 4 at a time (a hundredth of 400): 1 + 2 + 4 + 4 + 4 > 12 requests in 5 takes.
    assert.deepEqual([...new Set(granted)], [1, 2, 4]);
    const row = await database.db.kysely
      .selectFrom('rate_limit_buckets')
      .select('tokens')
      .where('bucket', '=', 'key-3')
      .executeTakeFirstOrThrow();
    assert.equal(Math.round(Number(row.tokens)), 400 - 15);
  });

  it('counts a small limit one request at a time, exactly', async () => {
    const settings = { requests: 20, windowMs: 3_600_000 };
    const limiters = [
      createCredentialRateLimiter(database.db, settings),
      createCredentialRateLimiter(second, settings),
    ];
    const states = await Promise.all(
      Array.from({ length: 40 }, (_, i) => limiters[i % 2]?.take('key-2') ?? Promise.reject()),
    );
    assert.equal(states.filter((state) => state.retryAfterSeconds === undefined).length, 20);
  });
});
