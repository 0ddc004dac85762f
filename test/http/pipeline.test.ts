import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../src/contract/version.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`request pipeline (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const contractor = { displayName: 'Ada', legalName: 'Ada Lovelace', email: 'ada@example.com' };

    it('answers with data, X-Request-Id and the API version', async () => {
      const res = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
      assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION);
      assert.deepEqual(res.data, { items: [], limit: 30, offset: 0, nextOffset: null });
    });

    it('gives every failure the same error body and headers', async () => {
      const res = await call(app.baseUrl, 'no.such.operation', {}, { token: admin.token });
      assert.equal(res.status, 404);
      assert.equal(res.error.code, 'unknown_operation');
      assert.equal(res.error.request_id, res.headers.get('x-request-id'));
      assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION);
    });

    it('answers an overlong operation name with the same 404 body and headers', async () => {
      const res = await call(app.baseUrl, `x${'y'.repeat(400)}`, {}, { token: admin.token });
      assert.equal(res.status, 404);
      assert.equal(res.error.code, 'unknown_operation');
      assert.equal(res.headers.get('x-accounting-api-version'), API_VERSION);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    });

    it('refuses GET on a read the contract lists as POST only (contractors.templates.list)', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.templates.list',
        {},
        { token: admin.token, method: 'GET' },
      );
      assert.equal(res.status, 405);
      assert.equal(res.error.code, 'method_not_allowed');
      const post = await call(app.baseUrl, 'contractors.templates.list', {}, { token: admin.token });
      assert.equal(post.status, 200);
    });

    it('refuses GET on a mutation with 405', async () => {
      const res = await call(app.baseUrl, 'contractors.create', {}, { token: admin.token, method: 'GET' });
      assert.equal(res.status, 405);
      assert.equal(res.error.code, 'method_not_allowed');
    });

    it('refuses a POST that is not JSON with 415', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: admin.token, headers: { 'content-type': 'text/plain' } },
      );
      assert.equal(res.status, 415);
      assert.equal(res.error.code, 'unsupported_media_type');
    });

    it('refuses a body over the limit with 413', async () => {
      const rawBody = JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 10) });
      const res = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token, rawBody });
      assert.equal(res.status, 413);
      assert.equal(res.error.code, 'payload_too_large');
    });

    it('refuses malformed JSON with 400 invalid_json', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: admin.token, rawBody: '{"limit":' },
      );
      assert.equal(res.status, 400);
      assert.equal(res.error.code, 'invalid_json');
    });

    it('requires a credential (401) before validating input', async () => {
      const res = await call(app.baseUrl, 'contractors.list', { bogus: 1 }, { token: null });
      assert.equal(res.status, 401);
      assert.equal(res.error.code, 'missing_credential');
      const wrong = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: `${admin.token.slice(0, -2)}xx` },
      );
      assert.equal(wrong.status, 401);
      assert.equal(wrong.error.code, 'invalid_credential');
    });

    it('names the bad field, unknown fields and unknown query parameters', async () => {
      const bad = await call(app.baseUrl, 'contractors.list', { limit: 101 }, { token: admin.token });
      assert.equal(bad.status, 400);
      assert.deepEqual([bad.error.code, bad.error.field], ['invalid_input', 'limit']);
      const unknown = await call(app.baseUrl, 'contractors.list', { colour: 'red' }, { token: admin.token });
      assert.deepEqual(
        [unknown.status, unknown.error.code, unknown.error.field],
        [400, 'unknown_field', 'colour'],
      );
      const query = await call(
        app.baseUrl,
        'contractors.list',
        { colour: 'red' },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual(
        [query.status, query.error.code, query.error.field],
        [400, 'unknown_parameter', 'colour'],
      );
      const coerced = await call(
        app.baseUrl,
        'contractors.list',
        { limit: 5, offset: 0 },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(coerced.status, 200);
      assert.equal(coerced.data.limit, 5);
    });

    it('replays a mutation with the same key and takes effect once', async () => {
      const key = 'replay-key-0001';
      const first = await call(app.baseUrl, 'contractors.create', contractor, {
        token: admin.token,
        idempotencyKey: key,
      });
      assert.equal(first.status, 200);
      const again = await call(app.baseUrl, 'contractors.create', contractor, {
        token: admin.token,
        idempotencyKey: key,
      });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const count = await app.services.db.kysely
        .selectFrom('contractors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', admin.organizationId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1);
      const reused = await call(
        app.baseUrl,
        'contractors.create',
        { ...contractor, displayName: 'Other' },
        { token: admin.token, idempotencyKey: key },
      );
      assert.deepEqual([reused.status, reused.error.code], [400, 'idempotency_key_reused']);
    });

    it('refuses a NUL character in any string with 400 naming the field, and stores nothing', async () => {
      const countContractors = async () =>
        Number(
          (
            await app.services.db.kysely
              .selectFrom('contractors')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('organization_id', '=', admin.organizationId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await countContractors();
      const res = await call(
        app.baseUrl,
        'contractors.create',
        { ...contractor, email: 'nul@example.com', legalName: 'Ada\u0000Lovelace' },
        { token: admin.token },
      );
      assert.deepEqual([res.status, res.error.code, res.error.field], [400, 'invalid_input', 'legalName']);
      assert.equal(await countContractors(), before);
      const query = await call(
        app.baseUrl,
        'contractors.list',
        { query: 'a\u0000b' },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual([query.status, query.error.code, query.error.field], [400, 'invalid_input', 'query']);
    });

    it('requires an idempotency key on mutations and refuses a header/body mismatch', async () => {
      const none = await call(
        app.baseUrl,
        'contractors.create',
        { ...contractor, email: 'x1@example.com' },
        { token: admin.token, idempotencyKey: null },
      );
      assert.deepEqual([none.status, none.error.code], [400, 'idempotency_key_required']);
      const mismatch = await call(
        app.baseUrl,
        'contractors.create',
        { ...contractor, email: 'x2@example.com', idempotencyKey: 'body-key-123' },
        { token: admin.token, headers: { 'idempotency-key': 'header-key-123' } },
      );
      assert.deepEqual([mismatch.status, mismatch.error.code], [400, 'idempotency_key_mismatch']);
    });
  });
}
