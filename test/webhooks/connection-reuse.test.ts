import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { closeDeliveryPools, keptPools, leasePool } from '../../src/webhooks/connection-pool.ts';
import { deliver } from '../../src/webhooks/safe-client.ts';

/** Deliveries reuse a kept connection, but only to the very addresses the policy vetted for them. */
const servers: Server[] = [];
after(async () => {
  await closeDeliveryPools();
  for (const server of servers) server.close();
});

async function countingServer(): Promise<{
  port: number;
  connections: () => number;
  requests: () => number;
}> {
  let connections = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  server.on('connection', () => {
    connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    requests: () => requests,
  };
}

const request = (url: string) => ({
  url,
  headers: { 'Content-Type': 'application/json', 'Service-Event-Id': 'evt_1' },
  body: '{"id":"evt_1"}',
});

describe('webhook connections are kept alive per vetted address', () => {
  test('back-to-back deliveries to one receiver share one connection', async () => {
    const receiver = await countingServer();
    const url = `http://localhost:${receiver.port}/hook`;
    for (let i = 0; i < 5; i++) {
      const result = await deliver(request(url), { allowLocalhostHttp: true, localhostPorts: 'any' });
      assert.equal(result.outcome, 'success', JSON.stringify(result));
      assert.equal(result.address, '127.0.0.1');
    }
    assert.equal(receiver.requests(), 5);
    // One connection, or two when undici opens a second before the first is back in the pool.
    assert.ok(receiver.connections() <= 2, `${receiver.connections()} connections for 5 deliveries`);
  });

  test('a different set of vetted addresses never shares a kept pool', async () => {
    await closeDeliveryPools();
    const key = (addresses: string[]) => ({
      origin: 'https://hooks.example.com',
      addresses,
      ca: undefined,
      headersTimeoutMs: 1000,
    });
    const refuse: Parameters<typeof leasePool>[1] = () => (_options, callback) =>
      callback(new Error('not used'), null);
    const a = leasePool(key(['203.0.113.5']), refuse);
    const again = leasePool(key(['203.0.113.5']), refuse);
    // After a DNS change the same origin resolves elsewhere: a pool of its own.
    const b = leasePool(key(['203.0.113.9']), refuse);
    assert.equal(again.pool, a.pool);
    assert.notEqual(b.pool, a.pool);
    assert.equal(keptPools(), 2);
    for (const lease of [a, again, b]) lease.release();
  });

  test('closing the pools ends every kept connection', async () => {
    await closeDeliveryPools();
    assert.equal(keptPools(), 0);
  });
});
