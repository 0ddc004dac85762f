import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { getGlobalDispatcher, ProxyAgent, setGlobalDispatcher } from 'undici';
import { sendPinned } from '../../src/webhooks/pinned-request.ts';
import { deliver, excerptOf, type Resolver } from '../../src/webhooks/safe-client.ts';

// ---- Loopback servers -------------------------------------------------------------------------

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
type Running = { port: number; connections: number; requests: Received[]; server: Server };

const servers: Array<Server | TcpServer> = [];
after(() => {
  for (const server of servers) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close();
  }
});

async function listen(server: Server, host = '127.0.0.1'): Promise<Running> {
  const running: Running = { port: 0, connections: 0, requests: [], server };
  server.on('connection', () => {
    running.connections++;
  });
  servers.push(server);
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  running.port = address.port;
  return running;
}

async function httpServer(handler: Handler): Promise<Running> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    handler(req, res, body);
  });
  const running = await listen(server);
  running.requests = received;
  return running;
}

/** A TCP listener on port 8443 of a random 127/8 address: it counts connections and never answers. */
async function trapOn8443(): Promise<{ ip: string; connections: () => number }> {
  for (let tries = 0; tries < 20; tries++) {
    const octet = () => 1 + Math.floor(Math.random() * 250);
    const ip = `127.${octet()}.${octet()}.${octet()}`;
    let connections = 0;
    const server = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(8443, ip, () => resolve(true));
    });
    if (bound) {
      servers.push(server);
      return { ip, connections: () => connections };
    }
  }
  throw new Error('no free 127/8 address for port 8443');
}

function countingResolver(answer: (call: number) => string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    return answer(calls.length);
  };
  return Object.assign(resolver, { calls });
}

const DEV = { allowLocalhostHttp: true, localhostPorts: 'any' } as const;
const request = (url: string) => ({
  url,
  headers: { 'Content-Type': 'application/json', 'Service-Event-Id': 'evt_1' },
  body: '{"id":"evt_1"}',
});

// ---- The http://localhost exception: real deliveries end to end ----------------------------------

describe('deliveries to http://localhost', () => {
  test('a 2xx answer is a success; the body, headers and original Host header arrive', async () => {
    const receiver = await httpServer((_req, res) => res.writeHead(200).end('thanks'));
    const url = `http://localhost:${receiver.port}/hooks?x=1`;
    const result = await deliver(
      { ...request(url), headers: { ...request(url).headers, Host: 'evil.example' } },
      DEV,
    );
    assert.equal(result.outcome, 'success');
    assert.equal(result.status, 200);
    // The receiver said "thanks"; a local answer is never kept (issue 31 part 7).
    assert.equal(result.responseExcerpt, '');
    assert.equal(result.responseTruncated, false);
    assert.equal(result.address, '127.0.0.1');
    assert.equal(result.errorClass, undefined);
    assert.ok(result.durationMs >= 0);
    const [received] = receiver.requests;
    assert.equal(received?.method, 'POST');
    assert.equal(received?.url, '/hooks?x=1');
    assert.equal(received?.body, '{"id":"evt_1"}');
    assert.equal(received?.headers['content-type'], 'application/json');
    assert.equal(received?.headers['service-event-id'], 'evt_1');
    assert.equal(received?.headers.host, `localhost:${receiver.port}`);
  });

  test('with the operator setting off, http://localhost is refused and nothing connects', async () => {
    const receiver = await httpServer((_req, res) => res.end());
    const result = await deliver(request(`http://localhost:${receiver.port}/`), {
      allowLocalhostHttp: false,
      localhostPorts: 'any',
    });
    assert.equal(result.outcome, 'failure');
    assert.equal(result.errorClass, 'unsafe_address');
    assert.equal(receiver.connections, 0);
  });

  test('status codes: 2xx success, 410 gone, everything else a failure', async () => {
    const receiver = await httpServer((req, res) => res.writeHead(Number(req.url?.slice(1))).end());
    const expectations: ReadonlyArray<readonly [number, string, string | undefined]> = [
      [200, 'success', undefined],
      [201, 'success', undefined],
      [204, 'success', undefined],
      [299, 'success', undefined],
      [410, 'gone', undefined],
      [400, 'failure', 'http_status'],
      [404, 'failure', 'http_status'],
      [429, 'failure', 'http_status'],
      [500, 'failure', 'http_status'],
      [503, 'failure', 'http_status'],
    ];
    for (const [status, outcome, errorClass] of expectations) {
      const result = await deliver(request(`http://localhost:${receiver.port}/${status}`), DEV);
      assert.deepEqual([result.status, result.outcome, result.errorClass], [status, outcome, errorClass]);
    }
  });

  test('redirects are never followed: the redirect target receives nothing', async () => {
    const target = await httpServer((_req, res) => res.end('followed'));
    const redirector = await httpServer((req, res) =>
      res.writeHead(Number(req.url?.slice(1)), { Location: `http://localhost:${target.port}/` }).end(),
    );
    for (const status of [301, 302, 303, 307, 308]) {
      const result = await deliver(request(`http://localhost:${redirector.port}/${status}`), DEV);
      assert.equal(result.outcome, 'failure');
      assert.equal(result.status, status);
      assert.equal(result.errorClass, 'redirect');
    }
    assert.equal(target.connections, 0);
  });

  test('a body trickled past the deadline is a timeout, measured over the whole delivery', {
    timeout: 10_000,
  }, async () => {
    const receiver = await httpServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const result = await deliver(request(`http://localhost:${receiver.port}/`), { ...DEV, timeoutMs: 300 });
    assert.equal(result.outcome, 'failure');
    assert.equal(result.errorClass, 'timeout');
    assert.ok(result.durationMs >= 250 && result.durationMs < 2000, `took ${result.durationMs} ms`);
  });

  test('a receiver that never answers is a timeout', { timeout: 10_000 }, async () => {
    const receiver = await httpServer(() => undefined);
    const result = await deliver(request(`http://localhost:${receiver.port}/`), { ...DEV, timeoutMs: 300 });
    assert.equal(result.errorClass, 'timeout');
    assert.ok(result.durationMs < 2000);
  });

  test('a closed port is connection_refused', async () => {
    const closed = await httpServer(() => undefined);
    closed.server.close();
    await once(closed.server, 'close');
    const result = await deliver(request(`http://localhost:${closed.port}/`), DEV);
    assert.equal(result.outcome, 'failure');
    assert.equal(result.errorClass, 'connection_refused');
    assert.equal(result.address, '127.0.0.1');
  });

  test('an endless response is cut at maxResponseBytes and its socket destroyed', {
    timeout: 10_000,
  }, async () => {
    let socketClosed: Promise<unknown> = Promise.resolve();
    const receiver = await httpServer((req, res) => {
      // The client resets the connection: wait for 'close' and ignore the reset error itself.
      req.socket.on('error', () => undefined);
      socketClosed = new Promise((resolve) => req.socket.once('close', resolve));
      res.writeHead(200);
      const write = () => {
        while (res.write('x'.repeat(16 * 1024))) {}
      };
      res.on('drain', write);
      write();
    });
    const result = await deliver(request(`http://localhost:${receiver.port}/`), {
      ...DEV,
      maxResponseBytes: 1000,
      timeoutMs: 5000,
    });
    assert.equal(result.outcome, 'success');
    assert.equal(result.responseTruncated, true);
    assert.equal(result.responseExcerpt, '', 'a local answer is not kept');
    assert.ok(result.durationMs < 2000, `took ${result.durationMs} ms`);
    await socketClosed;
  });

  test('the excerpt is the first 1024 characters of the UTF-8 body (none for localhost)', async () => {
    // Only public receivers get an excerpt, and tests reach none: the cut is checked on the bytes.
    assert.equal(excerptOf(Buffer.from('é☕'.repeat(1500))), 'é☕'.repeat(512));
    assert.equal(excerptOf(Buffer.from('😀'.repeat(1500))), '😀'.repeat(1024));
    assert.equal(excerptOf(Buffer.from('ok')), 'ok');
    const receiver = await httpServer((_req, res) => res.writeHead(500).end('é☕'.repeat(1500)));
    const result = await deliver(request(`http://localhost:${receiver.port}/`), DEV);
    assert.equal(result.errorClass, 'http_status');
    assert.equal(result.responseExcerpt, '');
    assert.equal(result.responseTruncated, false);
  });

  test('reaches only the ports the operator lists (ACCOUNTING_WEBHOOK_LOCALHOST_PORTS)', async () => {
    const listed = await httpServer((_req, res) => res.writeHead(200).end('secret local answer'));
    const unlisted = await httpServer((_req, res) => res.writeHead(200).end('database'));
    const opts = { allowLocalhostHttp: true, localhostPorts: [listed.port] };
    const ok = await deliver(request(`http://localhost:${listed.port}/`), opts);
    assert.equal(ok.outcome, 'success');
    assert.equal(ok.responseExcerpt, '', 'no excerpt of a local answer');
    const refused = await deliver(request(`http://localhost:${unlisted.port}/`), opts);
    assert.equal(refused.outcome, 'failure');
    assert.equal(refused.errorClass, 'unsafe_address');
    assert.match(refused.errorMessage ?? '', /ACCOUNTING_WEBHOOK_LOCALHOST_PORTS/);
    assert.equal(unlisted.connections, 0, 'nothing connected to the unlisted port');
    const none = await deliver(request(`http://localhost:${listed.port}/`), {
      allowLocalhostHttp: true,
      localhostPorts: [],
    });
    assert.equal(none.errorClass, 'unsafe_address');
    assert.equal(listed.connections, 1, 'only the first delivery connected');
  });

  test('proxy settings in the environment and the global dispatcher are ignored', async () => {
    const proxy = await httpServer((_req, res) => res.writeHead(502).end());
    const receiver = await httpServer((_req, res) => res.writeHead(204).end());
    const proxyUrl = `http://127.0.0.1:${proxy.port}`;
    const names = [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'http_proxy',
      'https_proxy',
      'ALL_PROXY',
      'NO_PROXY',
    ] as const;
    const saved = names.map((name) => [name, process.env[name]] as const);
    const savedDispatcher = getGlobalDispatcher();
    try {
      for (const name of names) process.env[name] = name === 'NO_PROXY' ? '' : proxyUrl;
      setGlobalDispatcher(new ProxyAgent(proxyUrl));
      const result = await deliver(request(`http://localhost:${receiver.port}/`), DEV);
      assert.equal(result.outcome, 'success');
      assert.equal(result.status, 204);
    } finally {
      setGlobalDispatcher(savedDispatcher);
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    assert.equal(receiver.requests.length, 1);
    assert.equal(proxy.connections, 0);
  });
});

// ---- Address vetting through an injected resolver ------------------------------------------------

// Public, but in APNIC's research prefix that absorbs junk traffic: nothing answers there.
const PUBLIC_IP = '1.2.3.4';

describe('address vetting', () => {
  test('a name resolving only to non-public addresses is refused before any connection', async () => {
    const trap = await trapOn8443();
    const answers = [[trap.ip], ['10.0.0.1', trap.ip, '::1', `::ffff:${trap.ip}`, '169.254.169.254']];
    for (const answer of answers) {
      const resolver = countingResolver(() => answer);
      const result = await deliver(request('https://hooks.example.com:8443/x'), { ...DEV, resolver });
      assert.equal(result.outcome, 'failure');
      assert.equal(result.errorClass, 'unsafe_address');
      assert.match(result.errorMessage ?? '', /loopback/);
      assert.deepEqual(resolver.calls, ['hooks.example.com']);
      assert.equal(result.address, undefined);
    }
    assert.equal(trap.connections(), 0);
  });

  test('an IP-literal URL with a private address is refused without resolving or connecting', async () => {
    const trap = await trapOn8443();
    const resolver = countingResolver(() => [PUBLIC_IP]);
    const result = await deliver(request(`https://${trap.ip}:8443/`), { ...DEV, resolver });
    assert.equal(result.errorClass, 'unsafe_address');
    assert.equal(resolver.calls.length, 0);
    assert.equal(trap.connections(), 0);
  });

  test('DNS rebinding: one resolution, and only its vetted answer is ever connected to', async () => {
    const trap = await trapOn8443();
    // First answer public, every later answer the private trap: a second lookup would hit the trap.
    const resolver = countingResolver((call) => (call === 1 ? [PUBLIC_IP] : [trap.ip]));
    const result = await deliver(request('https://rebind.example.com:8443/'), {
      ...DEV,
      resolver,
      timeoutMs: 300,
    });
    assert.equal(resolver.calls.length, 1);
    assert.equal(result.address, PUBLIC_IP);
    assert.equal(result.outcome, 'failure');
    assert.notEqual(result.errorClass, 'unsafe_address');
    assert.equal(trap.connections(), 0);
  });

  test('a mixed answer connects to a public address, never to the private one', async () => {
    const trap = await trapOn8443();
    const resolver = countingResolver(() => [trap.ip, PUBLIC_IP]);
    const result = await deliver(request('https://mixed.example.com:8443/'), {
      ...DEV,
      resolver,
      timeoutMs: 300,
    });
    assert.equal(result.address, PUBLIC_IP);
    assert.equal(trap.connections(), 0);
  });

  test('resolver failures are dns_error; a resolver that hangs is stopped by the deadline', {
    timeout: 10_000,
  }, async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example.com'), { code: 'ENOTFOUND' });
    };
    const empty: Resolver = async () => [];
    const hanging: Resolver = () => new Promise(() => undefined);
    const url = 'https://nowhere.example.com/';
    const failed = await deliver(request(url), { ...DEV, resolver: failing });
    assert.deepEqual([failed.outcome, failed.errorClass], ['failure', 'dns_error']);
    assert.match(failed.errorMessage ?? '', /ENOTFOUND/);
    assert.equal((await deliver(request(url), { ...DEV, resolver: empty })).errorClass, 'dns_error');
    const hung = await deliver(request(url), { ...DEV, resolver: hanging, timeoutMs: 200 });
    assert.equal(hung.errorClass, 'timeout');
    assert.ok(hung.durationMs < 1500);
  });

  test('without a resolver the system one is used: a name nobody resolves is a dns_error', async () => {
    // .invalid never resolves (RFC 6761); an offline machine may also time out instead.
    const result = await deliver(request('https://name-that-does-not-exist.invalid/'), {
      ...DEV,
      timeoutMs: 3000,
    });
    assert.ok(result.errorClass === 'dns_error' || result.errorClass === 'timeout', result.errorClass);
  });
});

// ---- TLS on the pinned connection ---------------------------------------------------------------

// A private test CA (valid 2020-2120) and leaf certificates for two names, made with openssl.
const CA = `-----BEGIN CERTIFICATE-----
MIIBZzCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9XZWJob29r
IFRlc3QgQ0EwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBoxGDAW
BgNVBAMMD1dlYmhvb2sgVGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA
BARhMrjYRbPHyBLWchJT75wUEzdwwi0Hg+dpQV8+Og8H0fC9ue/3/qpuw92cEfDe
OVFlujfSU1tSsBtKoNnp1yejQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/
BAQDAgIEMB0GA1UdDgQWBBRB7f5h/u58jdX82NWPz3TkKLj2hjAKBggqhkjOPQQD
AgNIADBFAiEAl0uP/uvTBVPobRA4UjNPQvOqIrTZFLl62XMpWU4rT24CIAUVcTM9
LOVGFfTdKB/T81IBmCzE+kdOYbhcYObDwbbW
-----END CERTIFICATE-----`;
const RECEIVER = {
  cert: `-----BEGIN CERTIFICATE-----
MIIBwjCCAWigAwIBAgIBAjAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9XZWJob29r
IFRlc3QgQ0EwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMB8xHTAb
BgNVBAMMFHJlY2VpdmVyLmV4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAE63j7LCKkA8wVQZhV5sVw6O4gZFPB3ceGvbzp/BiIIRsKqJ9mQmXEDyTM
soNM0BP4UQuESDZkzR1LUGAURrJwnaOBlzCBlDAMBgNVHRMBAf8EAjAAMA4GA1Ud
DwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAfBgNVHSMEGDAWgBRB7f5h
/u58jdX82NWPz3TkKLj2hjAfBgNVHREEGDAWghRyZWNlaXZlci5leGFtcGxlLmNv
bTAdBgNVHQ4EFgQUAsSr/cdS8flHiq8tWZ7EDCqwBGYwCgYIKoZIzj0EAwIDSAAw
RQIhALysQhotpeHJ3lJUnMOMguXtQVQ7RloZOI8CoYROMR/AAiBnQdmqt1R0dXef
xIhuCwfhKM6o4/71djmw8UFsJ+9hnQ==
-----END CERTIFICATE-----`,
  key: `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIDcIhR8hB6JTHhPCMKO9ELOUSOuZ2wHDEjyKbvDiBuFdoAoGCCqGSM49
AwEHoUQDQgAE63j7LCKkA8wVQZhV5sVw6O4gZFPB3ceGvbzp/BiIIRsKqJ9mQmXE
DyTMsoNM0BP4UQuESDZkzR1LUGAURrJwnQ==
-----END EC PRIVATE KEY-----`,
};
const OTHER = {
  cert: `-----BEGIN CERTIFICATE-----
MIIBuzCCAWKgAwIBAgIBAzAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9XZWJob29r
IFRlc3QgQ0EwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBwxGjAY
BgNVBAMMEW90aGVyLmV4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
QgAE3BDDTmS+lvRv77/DJijJ9Bockt/fbjHd8N75/2v92udHABKowBSL/xbMeK6l
i9BadPaRTAEN4HsTZwtMshLJvaOBlDCBkTAMBgNVHRMBAf8EAjAAMA4GA1UdDwEB
/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAfBgNVHSMEGDAWgBRB7f5h/u58
jdX82NWPz3TkKLj2hjAcBgNVHREEFTATghFvdGhlci5leGFtcGxlLmNvbTAdBgNV
HQ4EFgQUtJww+uKIMuVq3uUNrZOa421vtvEwCgYIKoZIzj0EAwIDRwAwRAIgfCZg
DiNhZqLpL0mcvLfHdu5km8gqmd97lsRqIOTxURkCIDIGGHB4wiZTNhQFhuiCoKno
SbRAFAhdxJmb10LPD48x
-----END CERTIFICATE-----`,
  key: `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEILEvaXM1h6uUywjKv1eEajNUw8ROJVs45KBe6f6rFHyyoAoGCCqGSM49
AwEHoUQDQgAE3BDDTmS+lvRv77/DJijJ9Bockt/fbjHd8N75/2v92udHABKowBSL
/xbMeK6li9BadPaRTAEN4HsTZwtMshLJvQ==
-----END EC PRIVATE KEY-----`,
};

async function httpsServer(identity: { cert: string; key: string }) {
  const seen: Array<{ servername: string; host: string | undefined }> = [];
  const server = createHttpsServer(identity, (req, res) => {
    // Node sets servername on server-side TLS sockets, but @types/node does not declare it.
    const servername: unknown = Reflect.get(req.socket, 'servername');
    seen.push({ servername: typeof servername === 'string' ? servername : '', host: req.headers.host });
    req.resume();
    req.on('end', () => res.writeHead(202).end('tls ok'));
  });
  return { ...(await listen(server)), seen };
}

describe('sendPinned over TLS', () => {
  const body = { headers: {}, body: '{}' };
  const options = (ca?: string) => ({
    timeoutMs: 3000,
    maxResponseBytes: 1024,
    signal: new AbortController().signal,
    ...(ca === undefined ? {} : { ca }),
  });

  test('connects to the pinned IP but sends the URL name as SNI and Host, and checks the certificate', async () => {
    const receiver = await httpsServer(RECEIVER);
    const url = new URL(`https://receiver.example.com:${receiver.port}/hook`);
    const response = await sendPinned(url, ['127.0.0.1'], body, options(CA));
    assert.equal(response.status, 202);
    assert.equal(response.body.toString(), 'tls ok');
    assert.deepEqual(receiver.seen, [
      { servername: 'receiver.example.com', host: `receiver.example.com:${receiver.port}` },
    ]);
  });

  test('a fully qualified name (trailing dot) is sent as SNI without the dot (RFC 6066)', async () => {
    const receiver = await httpsServer(RECEIVER);
    const url = new URL(`https://receiver.example.com.:${receiver.port}/hook`);
    const response = await sendPinned(url, ['127.0.0.1'], body, options(CA));
    assert.equal(response.status, 202);
    assert.equal(receiver.seen[0]?.servername, 'receiver.example.com');
  });

  test('the deadline ends an attempt still waiting for its connection (a TLS handshake that never answers)', async () => {
    // Accepts the TCP connection and never speaks: the request never reaches a connection.
    const accepted = new Set<Socket>();
    const silent = createTcpServer((socket) => accepted.add(socket));
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const deadline = new AbortController();
    const url = new URL(`https://receiver.example.com:${port}/hook`);
    // The connector's own limit is far away: only the deadline can end this attempt.
    const attempt = sendPinned(url, ['127.0.0.1'], body, {
      ...options(CA),
      timeoutMs: 600_000,
      signal: deadline.signal,
    });
    const reason = new Error('deadline');
    setTimeout(() => deadline.abort(reason), 50);
    await assert.rejects(attempt, (error) => error === reason);
    for (const socket of accepted) socket.destroy();
  });

  test('a certificate for another name is refused', async () => {
    const receiver = await httpsServer(OTHER);
    const url = new URL(`https://receiver.example.com:${receiver.port}/hook`);
    await assert.rejects(sendPinned(url, ['127.0.0.1'], body, options(CA)), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    assert.equal(receiver.seen.length, 0);
  });

  test('a certificate from an untrusted issuer is refused', async () => {
    const receiver = await httpsServer(RECEIVER);
    const url = new URL(`https://receiver.example.com:${receiver.port}/hook`);
    await assert.rejects(sendPinned(url, ['127.0.0.1'], body, options()), {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    assert.equal(receiver.seen.length, 0);
  });
});
