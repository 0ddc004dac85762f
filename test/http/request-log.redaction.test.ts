import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { registeredRoutes } from '../../src/http/app.ts';
import { PUBLIC_PARAMS, SECRET_PARAMS } from '../../src/http/redact.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

function capturingLogger(lines: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level: 'info' }, sink);
}

async function logLine(lines: Array<Record<string, unknown>>, requestId: string | null) {
  for (let i = 0; i < 100 && !lines.some((l) => l.requestId === requestId && l.msg === 'request'); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const line = lines.find((l) => l.requestId === requestId && l.msg === 'request');
  assert.ok(line, `a request line for ${requestId}`);
  return line;
}

/** The parameters of a route pattern: `:name` segments and a trailing `*`. */
function paramsOf(pattern: string): string[] {
  return pattern.split('/').flatMap((s) => (s === '*' ? ['*'] : s.startsWith(':') ? [s.slice(1)] : []));
}

for (const dialect of DIALECTS) {
  describe(`no token in the access log (${dialect})`, () => {
    const lines: Array<Record<string, unknown>> = [];
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect, {
        logger: capturingLogger(lines),
        env: { ACCOUNTING_SIGN_IN_RATE_LIMIT: '100000/1m', ACCOUNTING_PORTAL_RATE_LIMIT: '100000/1m' },
      });
    });
    after(() => app.close());

    it('every path parameter of every route is declared secret or public', () => {
      const routes = registeredRoutes(app.server);
      assert.ok(routes.length > 20, 'the walk sees the routes');
      for (const route of routes) {
        for (const name of paramsOf(route.url)) {
          assert.ok(
            SECRET_PARAMS.has(name) || PUBLIC_PARAMS.has(name),
            `${route.method} ${route.url}: declare :${name} in SECRET_PARAMS or PUBLIC_PARAMS (src/http/redact.ts)`,
          );
        }
      }
    });

    it('a token in any secret path parameter of any route never reaches the log', async () => {
      const walked = new Set<string>();
      for (const route of registeredRoutes(app.server)) {
        const params = paramsOf(route.url);
        if (!params.some((name) => SECRET_PARAMS.has(name))) continue;
        if (!['GET', 'POST'].includes(route.method)) continue;
        const token = randomBytes(32).toString('base64url');
        const path = route.url
          .split('/')
          .map((segment) =>
            segment === '*'
              ? `${token}/accept`
              : segment === ':token'
                ? token
                : segment.startsWith(':')
                  ? 'x'
                  : segment,
          )
          .join('/');
        const res = await fetch(`${app.baseUrl}${path}`, {
          method: route.method,
          redirect: 'manual',
          headers:
            route.method === 'POST'
              ? { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl }
              : {},
          ...(route.method === 'POST' ? { body: '' } : {}),
        });
        await res.arrayBuffer();
        const line = await logLine(lines, res.headers.get('x-request-id'));
        assert.ok(
          !JSON.stringify(line).includes(token),
          `${route.method} ${route.url} logged ${String(line.url)}`,
        );
        assert.match(String(line.url), /<token>/);
        walked.add(route.url);
      }
      // The ones known today (a new one is walked as well).
      for (const known of [
        '/dashboard/sign-in/link/:token',
        '/dashboard/sign-in/oidc/choose/:token',
        '/portal/sign-in/link/:token',
        '/portal/invitations/*',
      ]) {
        assert.ok(walked.has(known), `${known} walked`);
      }
    });

    it('a token in a path no route matches is redacted too; record ids and operation names stay', async () => {
      const token = randomBytes(32).toString('base64url');
      const res = await fetch(`${app.baseUrl}/portal/sign-in/link/${token}/extra?state=${token}`);
      await res.arrayBuffer();
      const line = await logLine(lines, res.headers.get('x-request-id'));
      assert.equal(line.url, '/portal/sign-in/link/<token>/extra');
      const id = '0190a4c2-5b7e-7d3f-8a1b-2c3d4e5f6a7b';
      const page = await fetch(`${app.baseUrl}/dashboard/invoices/${id}`, { redirect: 'manual' });
      await page.arrayBuffer();
      assert.equal((await logLine(lines, page.headers.get('x-request-id'))).url, `/dashboard/invoices/${id}`);
      const api = await fetch(`${app.baseUrl}/api/v1/accounting/contractors.list`);
      await api.arrayBuffer();
      assert.equal(
        (await logLine(lines, api.headers.get('x-request-id'))).url,
        '/api/v1/accounting/contractors.list',
      );
    });
  });
}
