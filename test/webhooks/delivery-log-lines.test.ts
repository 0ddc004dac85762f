import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import {
  addEndpoint,
  causeEvent,
  deliverNow,
  deliveryRows,
  FAST_DELIVERY_ENV,
} from '../support/webhook-delivery.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

/** What an operator reads about a failed delivery: warn, endpoint and reason, nothing secret. */
describe('webhook delivery failures in the log', () => {
  let app: TestApp;
  let admin: Caller;
  const lines: Array<Record<string, unknown>> = [];
  before(async () => {
    app = await startTestApp('sqlite', { env: FAST_DELIVERY_ENV });
    admin = await createCaller(app);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    app.services.logger = pino({ level: 'debug' }, sink);
  });
  after(() => app.close());

  it('logs a failed attempt at warn with endpoint and reason, never the secret, signature or body', async () => {
    const receiver = await startWebhookReceiver({ status: 503, body: 'down for maintenance' });
    try {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/hooks?token=receiver-token`);
      const eventId = await causeEvent(app, admin);
      await deliverNow(app);
      const [delivery] = await deliveryRows(app, endpoint.id);
      assert.ok(delivery);
      const request = receiver.requests[0];
      assert.ok(request, 'the receiver was called');

      const failures = lines.filter((line) => line.msg === 'webhook delivery attempt failed');
      assert.equal(failures.length, 1);
      const line = failures[0] ?? {};
      assert.equal(line.level, 40, 'warn');
      assert.equal(line.endpointId, endpoint.id);
      assert.equal(line.endpointOrigin, receiver.url);
      assert.equal(line.deliveryId, delivery.id);
      assert.equal(line.eventId, eventId);
      assert.equal(line.reason, 'HTTP 503');
      assert.equal(line.status, 503);

      const everything = lines.map((entry) => JSON.stringify(entry)).join('\n');
      const signature = String(request.headers['service-signature'] ?? '').split('v1=')[1] ?? '';
      assert.ok(signature.length > 10);
      for (const secretish of [endpoint.secret, signature, request.body, 'receiver-token', 'maintenance'])
        assert.ok(!everything.includes(secretish), `the log must not contain ${secretish.slice(0, 20)}`);
    } finally {
      await receiver.close();
    }
  });
});
