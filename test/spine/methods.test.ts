import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../src/contract/version.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { assertMatchesOpenApi } from '../support/openapi-validator.ts';

/**
 * HTTP methods on /api/v1/accounting/<operation> (decision 3 and its follow-up): POST always,
 * GET and HEAD on reads that accept GET, 405 with `Allow` for every other method Node parses,
 * 404 for an unknown operation whatever the method. HEAD is GET without the body.
 */

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** node:http rather than fetch: fetch refuses TRACE and friends. */
function send(
  app: TestApp,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const url = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path, method, headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item);
  }
  return headers;
}

function assertCommon(res: RawResponse, label: string): void {
  assert.match(String(res.headers['x-request-id']), /^req_[0-9a-f]{32}$/, `${label} X-Request-Id`);
  assert.equal(res.headers['x-accounting-api-version'], API_VERSION, `${label} API version`);
}

/** A 405 whose `Allow` header and `allowed_methods` list the same methods, checked against OpenAPI. */
function assert405(res: RawResponse, method: string, path: string, allowed: string[], label: string): void {
  assert.equal(res.status, 405, `${label}: ${res.text.slice(0, 200)}`);
  assertCommon(res, label);
  assert.equal(res.headers.allow, allowed.join(', '), `${label} Allow`);
  if (method === 'HEAD') {
    assert.equal(res.text, '', `${label} HEAD has no body`);
    return;
  }
  const body = JSON.parse(res.text) as {
    error: { code: string; allowed_methods: string[]; request_id: string };
  };
  assert.equal(body.error.code, 'method_not_allowed', label);
  assert.deepEqual(body.error.allowed_methods, allowed, label);
  assert.equal(body.error.request_id, res.headers['x-request-id'], label);
  assertMatchesOpenApi({ method, path, status: res.status, headers: toHeaders(res.headers), body });
}

const OTHER_METHODS = http.METHODS.filter((m) => !['GET', 'HEAD', 'POST', 'CONNECT'].includes(m));

const OPERATIONS: Array<[string, string[]]> = [
  ['contractors.list', ['GET', 'HEAD', 'POST']],
  ['contractors.create', ['POST']],
  // A read the contract lists as POST only.
  ['contractors.templates.list', ['POST']],
];

for (const dialect of DIALECTS) {
  describe(`HTTP methods (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app?.close());

    it('every method other than GET/HEAD/POST is 405 with Allow, before the credential and the body', async () => {
      assert.ok(OTHER_METHODS.includes('OPTIONS') && OTHER_METHODS.includes('TRACE'));
      for (const [operation, allowed] of OPERATIONS) {
        const path = `/api/v1/accounting/${operation}`;
        for (const method of OTHER_METHODS) {
          for (const auth of [{ authorization: `Bearer ${admin.token}` }, {}] as Array<
            Record<string, string>
          >) {
            const res = await send(app, method, path, auth);
            assert405(res, method, path, allowed, `${method} ${operation}`);
          }
        }
        // A body of the wrong type and size does not get past the method check either.
        const put = await send(app, 'PUT', path, { 'content-type': 'text/plain' }, 'x'.repeat(5000));
        assert405(put, 'PUT', path, allowed, `PUT with a body ${operation}`);
      }
    });

    it('GET and HEAD on a mutation or a POST-only read are 405 with Allow: POST', async () => {
      for (const operation of ['contractors.create', 'contractors.templates.list']) {
        const path = `/api/v1/accounting/${operation}`;
        for (const method of ['GET', 'HEAD']) {
          const res = await send(app, method, path, { authorization: `Bearer ${admin.token}` });
          assert405(res, method, path, ['POST'], `${method} ${operation}`);
        }
      }
      // The shared helper sees the header too (it validates against the OpenAPI document).
      const res = await call(app.baseUrl, 'contractors.create', {}, { token: admin.token, method: 'GET' });
      assert.equal(res.headers.get('allow'), 'POST');
    });

    it('an unknown operation is 404 unknown_operation whatever the method', async () => {
      const path = '/api/v1/accounting/nope.nothing';
      for (const method of ['GET', 'HEAD', 'POST', ...OTHER_METHODS]) {
        const res = await send(app, method, path, { authorization: `Bearer ${admin.token}` });
        assert.equal(res.status, 404, `${method}: ${res.text.slice(0, 200)}`);
        assertCommon(res, method);
        assert.equal(res.headers.allow, undefined, method);
        if (method === 'HEAD') continue;
        const body = JSON.parse(res.text) as { error: { code: string } };
        assert.equal(body.error.code, 'unknown_operation', method);
        assertMatchesOpenApi({ method, path, status: 404, headers: toHeaders(res.headers), body });
      }
    });

    it('HEAD on a read is GET without the body: same status, headers and length', async () => {
      const path = '/api/v1/accounting/contractors.list?limit=2';
      const auth = { authorization: `Bearer ${admin.token}` };
      const get = await send(app, 'GET', path, auth);
      const head = await send(app, 'HEAD', path, auth);
      assert.equal(get.status, 200, get.text);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assertCommon(head, 'HEAD');
      assert.equal(head.headers['content-type'], get.headers['content-type']);
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(get.text)));
      assert.ok(head.headers.ratelimit, 'the rate limit headers of GET');
      // It runs the same pipeline: no credential is 401, a bad parameter 400.
      assert.equal((await send(app, 'HEAD', path)).status, 401);
      const bad = await send(app, 'HEAD', '/api/v1/accounting/contractors.list?bogus=1', auth);
      assert.equal(bad.status, 400);
      assertCommon(bad, 'HEAD 400');
    });
  });
}
