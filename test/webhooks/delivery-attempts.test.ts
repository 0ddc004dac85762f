import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SECOND } from '../../src/lib/clock.ts';
import { verifySignature } from '../../src/webhooks/signature.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import {
  addEndpoint,
  attemptRows,
  causeEvent,
  deliverNow,
  deliveryRows,
  endpointRow,
  FAST_DELIVERY_ENV,
} from '../support/webhook-delivery.ts';
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';

/**
 * A receiver-side check written from the contract alone (node:crypto, no project code):
 * HMAC-SHA256 keyed with the secret's UTF-8 bytes over "<t>.<raw body>", hex, in "t=..,v1=..".
 */
function independentVerify(header: string, body: string, secret: string, nowSeconds: number): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [key = '', value = ''] = item.split('=', 2);
    parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = parts.get('t')?.[0];
  if (t === undefined || !/^\d+$/.test(t) || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return (parts.get('v1') ?? []).some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const EXPECTED_HEADERS = [
  'content-type',
  'user-agent',
  'service-signature',
  'service-event-id',
  'service-event-type',
  'service-delivery-id',
  'service-delivery-attempt',
];

for (const dialect of DIALECTS) {
  describe(`webhook delivery attempts (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let receiver: WebhookReceiver;
    before(async () => {
      app = await startTestApp(dialect, { env: FAST_DELIVERY_ENV });
      admin = await createCaller(app);
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver.close();
      await app.close();
    });

    it('signs with the endpoint secret, sends exactly the contract headers and the envelope', async () => {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/hooks?x=1`);
      const eventId = await causeEvent(app, admin);
      await deliverNow(app);
      const request = await receiver.waitFor((r) => r.headers['service-event-id'] === eventId);
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/hooks?x=1');
      const own = request.headerNames.filter(
        (name) => !['host', 'content-length', 'connection'].includes(name),
      );
      assert.deepEqual([...own].sort(), [...EXPECTED_HEADERS].sort());
      assert.equal(request.headers['content-type'], 'application/json');
      assert.equal(request.headers['user-agent'], 'Service-Webhooks/1.0');
      assert.equal(request.headers['service-event-type'], 'contractor.created');
      assert.equal(request.headers['service-delivery-attempt'], '1');
      const [delivery] = await deliveryRows(app, endpoint.id);
      assert.equal(request.headers['service-delivery-id'], delivery?.id);

      const now = Math.floor(app.clock.now().getTime() / 1000);
      const header = String(request.headers['service-signature']);
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(header.split(',')[0], `t=${now}`);
      assert.deepEqual(verifySignature({ payload: request.body, header, secret: endpoint.secret, now }), {
        ok: true,
        timestamp: now,
      });
      assert.equal(independentVerify(header, request.body, endpoint.secret, now), true);
      assert.equal(independentVerify(header, request.body, `${endpoint.secret}x`, now), false);

      const envelope = JSON.parse(request.body) as Record<string, unknown>;
      assert.deepEqual(Object.keys(envelope), ['id', 'type', 'created', 'organizationId', 'subject', 'data']);
      assert.equal(envelope.id, eventId);
      assert.equal(envelope.type, 'contractor.created');
      assert.equal(envelope.created, now);
      assert.equal(envelope.organizationId, admin.organizationId);
      assert.equal((envelope.subject as { type: string }).type, 'contractor');

      assert.equal(delivery?.status, 'succeeded');
      assert.equal(delivery?.attempt_count, 1);
      const attempts = await attemptRows(app, delivery?.id ?? '');
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]?.outcome, 'success');
      assert.equal(attempts[0]?.status_code, 200);
      // The receiver answered "ok" from http://localhost: a local answer is never kept (issue 31 part 7).
      assert.equal(attempts[0]?.response_excerpt, '');
      const row = await endpointRow(app, endpoint.id);
      assert.equal(row.failure_count, 0);
      assert.notEqual(row.last_success_at, null);
      assert.notEqual(row.last_delivery_at, null);
    });

    it('retries a 500 on the schedule with the same body, numbering attempts and re-signing each', async () => {
      const local = await startWebhookReceiver((_req, index) =>
        index < 2 ? { status: 500, body: 'boom' } : {},
      );
      try {
        const endpoint = await addEndpoint(app, admin, local.url);
        const eventId = await causeEvent(app, admin);
        await deliverNow(app);
        assert.equal(local.requests.length, 1);
        // Not due yet: the second attempt waits 30 s after the first.
        app.clock.advance(29 * SECOND);
        await deliverNow(app);
        assert.equal(local.requests.length, 1);
        app.clock.advance(1 * SECOND);
        await deliverNow(app);
        assert.equal(local.requests.length, 2);
        app.clock.advance(90 * SECOND);
        await deliverNow(app);
        assert.equal(local.requests.length, 3);
        const numbers = local.requests.map((r: ReceivedRequest) => r.headers['service-delivery-attempt']);
        assert.deepEqual(numbers, ['1', '2', '3']);
        assert.equal(new Set(local.requests.map((r) => r.body)).size, 1, 'identical body on every attempt');
        assert.equal(new Set(local.requests.map((r) => r.headers['service-event-id'])).size, 1);
        assert.equal(local.requests[0]?.headers['service-event-id'], eventId);
        const stamps = local.requests.map((r) => String(r.headers['service-signature']).split(',')[0]);
        assert.equal(new Set(stamps).size, 3, 't is the time of each attempt');
        const [delivery] = await deliveryRows(app, endpoint.id);
        assert.equal(delivery?.status, 'succeeded');
        const attempts = await attemptRows(app, delivery?.id ?? '');
        assert.deepEqual(
          attempts.map((a) => [a.attempt_number, a.outcome, a.status_code, a.error_class]),
          [
            [1, 'failure', 500, 'http_status'],
            [2, 'failure', 500, 'http_status'],
            [3, 'success', 200, null],
          ],
        );
        assert.equal(attempts[0]?.response_excerpt, '', 'a local answer ("boom") is not kept');
        assert.equal((await endpointRow(app, endpoint.id)).failure_count, 0, 'a success resets the count');
      } finally {
        await local.close();
      }
    });

    it('reports queue depth, attempt outcomes and latencies on /metrics', async () => {
      const local = await startWebhookReceiver({ status: 500 });
      try {
        // A fresh organization: the endpoints of earlier tests would receive these events too.
        const owner = await createCaller(app);
        await addEndpoint(app, owner, local.url);
        await causeEvent(app, owner);
        await causeEvent(app, owner);
        const before = await (await fetch(`${app.baseUrl}/metrics`)).text();
        assert.match(before, /^accounting_webhook_queue_depth\{kind="first"\} 2$/m);
        await deliverNow(app);
        const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
        assert.match(text, /^accounting_webhook_queue_depth\{kind="first"\} 0$/m);
        // The two failures wait 30 s for their retry: not due yet, so not in the queue depth.
        assert.match(text, /^accounting_webhook_queue_depth\{kind="retry"\} 0$/m);
        assert.match(
          text,
          /^accounting_webhook_attempts_total\{outcome="failure",error_class="http_status"\} 4$/m,
        );
        assert.match(text, /^accounting_webhook_attempts_total\{outcome="success",error_class=""\} [1-9]/m);
        assert.match(text, /^accounting_webhook_attempt_duration_seconds_count\{outcome="failure"\} 4$/m);
        assert.match(text, /^accounting_webhook_first_attempt_latency_seconds_count [1-9]/m);
        app.clock.advance(30 * SECOND);
        const due = await (await fetch(`${app.baseUrl}/metrics`)).text();
        assert.match(due, /^accounting_webhook_queue_depth\{kind="retry"\} 2$/m);
      } finally {
        await local.close();
      }
    });
  });
}
