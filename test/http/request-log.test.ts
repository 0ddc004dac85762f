import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { lazyRequestLogger } from '../../src/http/lazy-request-logger.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

/** A pino logger writing its JSON lines into `lines`. */
function capturingLogger(level: string, lines: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level }, sink);
}

describe('the access log line', () => {
  const lines: Array<Record<string, unknown>> = [];
  let app: TestApp;
  let admin: Caller;
  before(async () => {
    app = await startTestApp('sqlite', { logger: capturingLogger('info', lines) });
    admin = await createCaller(app);
  });
  after(() => app.close());

  it('is written once per request with its request id, status and path, never a token', async () => {
    const res = await call(
      app.baseUrl,
      'contractors.list',
      { limit: 5 },
      { token: admin.token, method: 'GET' },
    );
    assert.equal(res.status, 200);
    const requestId = res.headers.get('x-request-id');
    // pino writes asynchronously to the stream: wait for the line.
    for (let i = 0; i < 50 && !lines.some((l) => l.requestId === requestId); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const line = lines.filter((l) => l.requestId === requestId);
    assert.equal(line.length, 1, JSON.stringify(lines.slice(-3)));
    assert.equal(line[0]?.msg, 'request');
    assert.equal(line[0]?.status, 200);
    assert.equal(line[0]?.url, '/api/v1/accounting/contractors.list');
    assert.equal(line[0]?.level, 30);
    assert.ok(!JSON.stringify(line[0]).includes(admin.token));
  });
});

describe('the lazy request logger', () => {
  it('logs with the request binding at enabled levels and builds no child otherwise', () => {
    const lines: Array<Record<string, unknown>> = [];
    const parent = capturingLogger('warn', lines);
    let children = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => {
      children += 1;
      return child(...args);
    }) as typeof parent.child;
    const logger = lazyRequestLogger(parent, { requestId: 'req_1' }, {});
    logger.info({ a: 1 }, 'hidden');
    logger.debug('hidden too');
    assert.equal(children, 0, 'nothing logged: no child built');
    assert.equal(logger.level, 'warn');
    logger.error({ err: new Error('boom') }, 'request failed');
    logger.warn('second');
    assert.equal(children, 1, 'one child, built at the first enabled line and kept');
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        assert.deepEqual(
          lines.map((l) => [l.requestId, l.msg]),
          [
            ['req_1', 'request failed'],
            ['req_1', 'second'],
          ],
        );
        resolve();
      }),
    );
  });
});
