import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JOBS } from '../../src/jobs/catalog.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

// SQLite only: PostgreSQL has no read pool (its readKysely is the one pool everything uses).
const dialects = DIALECTS.filter((d) => d === 'sqlite');

for (const dialect of dialects) {
  describe(`background jobs read on the writer (${dialect}, decision 288)`, () => {
    let app: TestApp;

    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('polls every job without starting a read-pool thread; an API read starts one', async () => {
      const started = () => app.services.db.readersStarted?.() ?? -1;
      assert.equal(started(), 0, 'starting the app started no reader');
      await app.runJobs(JOBS);
      await app.runJobs(JOBS);
      assert.equal(started(), 0, 'idle job polls ran on the writer');
      const admin = await createCaller(app);
      const list = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
      assert.equal(list.status, 200);
      assert.equal(started(), 1, 'an API read outside a transaction went to a reader');
    });
  });
}
