import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOUR } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import {
  addEndpoint,
  causeEvent,
  deliverNow,
  deliveryRows,
  FAST_DELIVERY_ENV,
} from '../support/webhook-delivery.ts';
import { type Answer, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** Retry now on a waiting delivery, and recovering every failed delivery after an outage. */
for (const dialect of DIALECTS) {
  describe(`webhooks.deliveries.retry (pending) and recover (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let receiver: WebhookReceiver;
    let answer: Answer = { status: 500 };
    before(async () => {
      // Two attempts: the first fails and waits an hour, the second is the last.
      app = await startTestApp(dialect, {
        env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0,1h' },
      });
      admin = await createCaller(app);
      receiver = await startWebhookReceiver(() => answer);
    });
    after(async () => {
      await receiver.close();
      await app.close();
    });
    const op = (name: string, input: Record<string, unknown>) =>
      call(app.baseUrl, name, input, { token: admin.token });

    it('makes a pending delivery waiting for its retry due now', async () => {
      answer = { status: 500 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/pending`);
      await causeEvent(app, admin);
      await deliverNow(app);
      const [waiting] = await deliveryRows(app, endpoint.id);
      assert.ok(waiting);
      assert.equal(waiting.status, 'pending');
      assert.equal(new Date(waiting.next_attempt_at).getTime(), app.clock.now().getTime() + HOUR);
      answer = { status: 200 };
      const res = await op('webhooks.deliveries.retry', { id: waiting.id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'pending');
      assert.equal(res.data.next_attempt_at, app.clock.now().toISOString());
      await deliverNow(app);
      const [done] = await deliveryRows(app, endpoint.id);
      assert.equal(done?.status, 'succeeded');
      assert.equal(done?.attempt_count, 2);
      const again = await op('webhooks.deliveries.retry', { id: waiting.id });
      assert.equal(again.status, 409);
      assert.equal(again.error.code, 'invalid_state');
    });

    it('recovers every failed delivery of an endpoint since a time, once', async () => {
      answer = { status: 500 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/recover`);
      const before = app.clock.now().toISOString();
      for (let i = 0; i < 3; i += 1) await causeEvent(app, admin);
      await deliverNow(app);
      app.clock.advance(HOUR);
      await deliverNow(app);
      const failed = await deliveryRows(app, endpoint.id);
      assert.deepEqual(
        failed.map((d) => d.status),
        ['failed', 'failed', 'failed'],
      );

      answer = { status: 200 };
      const later = await op('webhooks.deliveries.recover', {
        endpointId: endpoint.id,
        since: new Date(Date.parse(before) + 2 * HOUR).toISOString(),
      });
      assert.equal(later.status, 200, JSON.stringify(later.body));
      assert.equal(later.data.recovered, 0, 'nothing failed after that time');
      const res = await op('webhooks.deliveries.recover', { endpointId: endpoint.id, since: before });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.data, { endpoint_id: endpoint.id, since: before, recovered: 3 });
      const repeat = await op('webhooks.deliveries.recover', { endpointId: endpoint.id, since: before });
      assert.equal(repeat.data.recovered, 0, 'a repeat finds nothing failed');
      await deliverNow(app);
      const delivered = await deliveryRows(app, endpoint.id);
      assert.deepEqual(
        delivered.map((d) => [d.status, d.attempt_count]),
        [
          ['succeeded', 3],
          ['succeeded', 3],
          ['succeeded', 3],
        ],
      );
      const unknown = await op('webhooks.deliveries.recover', {
        endpointId: '01920000-0000-7000-8000-0000000000ff',
        since: before,
      });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.error.field, 'endpointId');
    });
  });
}
