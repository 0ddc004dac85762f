import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';

interface Entry {
  id: string;
  kind: string | null;
  recipients: string[];
  subject: string;
  status: string;
  attempts: number;
}

for (const dialect of DIALECTS) {
  describe(`admin.mailOutbox.list (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('lists kept mail of the organization without bodies; filters by state; other organizations see none', async () => {
      const admin = await createCaller(app, { role: 'admin' });
      const contractor = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Mia', legalName: 'Mia Ltd', email: 'mia@example.com' },
        { token: admin.token },
      );
      const invited = await call(
        app.baseUrl,
        'contractors.invite',
        { id: contractor.data.id, expectedRevision: contractor.data.revision },
        { token: admin.token },
      );
      assert.equal(invited.status, 200, JSON.stringify(invited.body));
      const res = await call(
        app.baseUrl,
        'admin.mailOutbox.list',
        { limit: 10 },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const items = res.data.items as Entry[];
      assert.equal(items.length, 1);
      assert.deepEqual(items[0]?.recipients, ['mia@example.com']);
      assert.equal(items[0]?.status, 'kept', 'no SMTP configured: kept, not sent');
      assert.ok(!JSON.stringify(res.body).includes('/portal/invitations/'), 'no body, so no invitation link');
      const failed = await call(
        app.baseUrl,
        'admin.mailOutbox.list',
        { status: 'failed' },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual(failed.data.items, []);
      const other = await createCaller(app, { role: 'admin' });
      const theirs = await call(
        app.baseUrl,
        'admin.mailOutbox.list',
        {},
        { token: other.token, method: 'GET' },
      );
      assert.deepEqual(theirs.data.items, []);
    });

    it('refuses finance members and unknown states', async () => {
      const finance = await createCaller(app, { role: 'finance' });
      assertError(
        await call(app.baseUrl, 'admin.mailOutbox.list', {}, { token: finance.token }),
        403,
        'role_not_allowed',
      );
      const admin = await createCaller(app, { role: 'admin' });
      const bad = await call(
        app.baseUrl,
        'admin.mailOutbox.list',
        { status: 'lost' },
        { token: admin.token },
      );
      assert.equal(bad.status, 400);
      assert.equal(bad.error.field, 'status');
    });
  });
}
