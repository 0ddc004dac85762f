import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { buildServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS, TEST_POSTGRES_URL } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput } from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * A database that cannot be reached is the service's problem, not the caller's: 503
 * service_unavailable with Retry-After (never a 500), and /readyz reports it.
 */

const postgres = DIALECTS.includes('postgres');

describe('database unavailable', { skip: postgres ? false : 'needs PostgreSQL (TEST_DIALECTS)' }, () => {
  it('a server whose PostgreSQL does not answer gives 503 on every operation and /readyz', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://root@127.0.0.1:1/nothing' });
    const services = await createServices(config, {
      db: openDatabase({ databaseUrl: config.databaseUrl, dataDir: '/nonexistent' }),
      logger: pino({ level: 'silent' }),
    });
    const server = await buildServer(services);
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const operation of ['contractors.list', 'contractors.create']) {
        const res = await call(base, operation, {}, { token: `ak_${'0'.repeat(16)}_${'a'.repeat(43)}` });
        assertError(res, 503, 'service_unavailable', operation);
        assert.equal(res.headers.get('retry-after'), '1');
      }
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal((await fetch(`${base}/healthz`)).status, 200, 'liveness does not depend on the database');
    } finally {
      await server.close();
      await services.db.close();
    }
  });

  describe('a database dropped under a running server', () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp('postgres');
      admin = await createCaller(app);
      assert.equal((await call(app.baseUrl, 'contractors.list', {}, { token: admin.token })).status, 200);
      const name = new URL(app.database.url ?? '').pathname.slice(1);
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`drop database ${name} with (force)`);
      await client.end();
    });
    after(() => app?.close());

    it('answers 503 service_unavailable, not 500', async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
        assertError(res, 503, 'service_unavailable', `attempt ${i + 1}`);
      }
      assert.equal((await fetch(`${app.baseUrl}/readyz`)).status, 503);
    });
  });
});

describe('SQLite locked by another process', {
  skip: DIALECTS.includes('sqlite') ? false : 'needs SQLite',
}, () => {
  let app: TestApp;
  let admin: Caller;
  before(async () => {
    app = await startTestApp('sqlite');
    admin = await createCaller(app);
  });
  after(() => app?.close());

  it('a write that waits past busy_timeout answers 503, and works again once the lock is gone', async () => {
    const file = path.join(app.database.env.ACCOUNTING_DATA_DIR, 'accounting.sqlite');
    const other = new BetterSqlite3(file);
    try {
      other.exec('begin exclusive');
      const res = await call(app.baseUrl, 'contractors.create', contractorInput(), { token: admin.token });
      assertError(res, 503, 'service_unavailable', 'locked');
    } finally {
      other.exec('rollback');
      other.close();
    }
    const retry = await call(app.baseUrl, 'contractors.create', contractorInput(), { token: admin.token });
    assert.equal(retry.status, 200);
  });
});
