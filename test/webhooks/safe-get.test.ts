// The GET of the rates source through the webhooks' SSRF-safe path: the same URL and address
// policy, no redirects, and a cap on what is read.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getSafely } from '../../src/webhooks/safe-get.ts';

describe('getSafely', () => {
  const server = createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: 'http://localhost/elsewhere' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(req.url === '/big' ? Buffer.alloc(10_000, 0x41) : Buffer.from(`<ok method="${req.method}"/>`));
  });
  let port = 0;
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());
  const opts = {
    accept: 'text/xml',
    maxBytes: 4096,
    allowLocalhostHttp: true,
    localhostPorts: 'any' as const,
  };

  it('reads the whole answer of a GET to an allowed URL', async () => {
    const got = await getSafely(`http://localhost:${port}/daily.xml`, opts);
    assert.deepEqual(got.ok && got.body.toString(), '<ok method="GET"/>');
  });

  it('refuses what the webhook policy refuses, without connecting', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/daily.xml`,
      'https://10.0.0.1/daily.xml',
      'ftp://example.com/x',
    ]) {
      const got = await getSafely(url, opts);
      assert.equal(!got.ok && got.errorClass, 'unsafe_address', url);
    }
    const closed = await getSafely(`http://localhost:${port}/daily.xml`, {
      ...opts,
      allowLocalhostHttp: false,
    });
    assert.equal(!closed.ok && closed.errorClass, 'unsafe_address');
    const unlisted = await getSafely(`http://localhost:${port}/daily.xml`, { ...opts, localhostPorts: [1] });
    assert.equal(!unlisted.ok && unlisted.errorClass, 'unsafe_address');
  });

  it('follows no redirect and reads no more than the cap', async () => {
    const moved = await getSafely(`http://localhost:${port}/moved`, opts);
    assert.deepEqual(!moved.ok && [moved.errorClass, moved.status], ['redirect', 302]);
    const big = await getSafely(`http://localhost:${port}/big`, opts);
    assert.equal(!big.ok && big.errorClass, 'too_large');
    assert.ok((await getSafely(`http://localhost:${port}/big`, { ...opts, maxBytes: 10_000 })).ok);
  });
});
