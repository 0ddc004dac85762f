import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

/** Input errors name the allowed values or the format, and list every invalid field at once. */
for (const dialect of DIALECTS) {
  describe(`validation report (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('reports every invalid field, the first one as field and message as before', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: '', legalName: 'L'.repeat(301), email: 'x@example.com', country: 'gb', color: 'red' },
        { token: admin.token },
      );
      assert.equal(res.status, 400);
      const errors = res.error.errors as Array<{ field: string; code: string; message: string }>;
      assert.ok(Array.isArray(errors));
      assert.equal(errors[0]?.field, res.error.field);
      assert.equal(errors[0]?.message, res.error.message);
      assert.equal(errors[0]?.code, res.error.code);
      const byField = new Map(errors.map((e) => [e.field, e]));
      for (const field of ['displayName', 'legalName', 'country', 'color'])
        assert.ok(byField.has(field), `${field} in ${JSON.stringify(errors)}`);
      assert.equal(byField.get('color')?.code, 'unknown_field');
      assert.equal(byField.get('displayName')?.code, 'invalid_input');
      assert.match(byField.get('country')?.message ?? '', /two uppercase letters/);
    });

    it('names the allowed values of an enum', async () => {
      const res = await call(
        app.baseUrl,
        'webhooks.deliveries.list',
        { status: 'broken' },
        { token: admin.token },
      );
      assert.equal(res.status, 400);
      assert.equal(res.error.code, 'invalid_input');
      assert.equal(res.error.field, 'status');
      assert.equal(
        res.error.message,
        'status must be one of: "pending", "succeeded", "failed", "cancelled".',
      );
    });

    it('says what is wrong with a nullable field rather than "no accepted form"', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'A', legalName: 'B', email: 'n@example.com', jobRoleId: 'nope' },
        { token: admin.token },
      );
      assert.equal(res.status, 400);
      assert.equal(res.error.field, 'jobRoleId');
      assert.match(res.error.message, /jobRoleId must be a UUID/);
    });
  });
}
