import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { enableEndpoint } from '../../../src/webhooks/endpoint-lifecycle.ts';
import { verifySignature } from '../../../src/webhooks/signature.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  addEndpoint,
  causeEvent,
  deliverNow,
  deliveryRows,
  endpointRow,
  FAST_DELIVERY_ENV,
} from '../../support/webhook-delivery.ts';
import { type Answer, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts?: Array<{
    attempt_number: number;
    outcome: string;
    status_code: number | null;
    error_class: string | null;
  }>;
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery log (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let other: Caller;
    let receiver: WebhookReceiver;
    let answer: Answer = { status: 500 };
    before(async () => {
      // Two attempts per delivery, no wait between them: a delivery fails for good in one run.
      app = await startTestApp(dialect, {
        env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0,0' },
      });
      admin = await createCaller(app);
      other = await createCaller(app);
      receiver = await startWebhookReceiver(() => answer);
    });
    after(async () => {
      await app.close();
      await receiver.close();
    });

    const op = (name: string, input: Record<string, unknown>, caller: Caller = admin) =>
      call(app.baseUrl, name, input, { token: caller.token });

    it('lists newest first with filters and cursor pages, and gets a delivery with its attempts', async () => {
      answer = { status: 200 };
      const first = await addEndpoint(app, admin, `${receiver.url}/a`);
      const second = await addEndpoint(app, admin, `${receiver.url}/b`);
      const events = [
        await causeEvent(app, admin),
        await causeEvent(app, admin),
        await causeEvent(app, admin),
      ];
      await deliverNow(app);

      const all = await op('webhooks.deliveries.list', { endpointId: first.id });
      assert.equal(all.status, 200);
      const items = all.data.items as Delivery[];
      assert.deepEqual(
        items.map((d) => d.event_id),
        [...events].reverse(),
      );
      assert.ok(items.every((d) => d.status === 'succeeded' && d.next_attempt_at === null));
      assert.equal(items[0]?.event_type, 'contractor.created');

      const byEvent = await op('webhooks.deliveries.list', { eventId: events[1] });
      assert.deepEqual(
        (byEvent.data.items as Delivery[]).map((d) => d.endpoint_id).sort(),
        [first.id, second.id].sort(),
      );

      const page1 = await op('webhooks.deliveries.list', { endpointId: second.id, limit: 2 });
      const page2 = await op('webhooks.deliveries.list', {
        endpointId: second.id,
        limit: 2,
        cursor: page1.data.nextCursor,
      });
      assert.deepEqual(
        [...(page1.data.items as Delivery[]), ...(page2.data.items as Delivery[])].map((d) => d.event_id),
        [...events].reverse(),
      );
      assert.equal(page2.data.nextCursor, null);

      const none = await op('webhooks.deliveries.list', { endpointId: first.id, status: 'failed' });
      assert.deepEqual(none.data.items, []);

      const got = await op('webhooks.deliveries.get', { id: items[0]?.id });
      assert.equal(got.status, 200);
      const delivery = got.data as unknown as Delivery;
      assert.equal(delivery.status, 'succeeded');
      assert.deepEqual(
        delivery.attempts?.map((a) => [a.attempt_number, a.outcome, a.status_code, a.error_class]),
        [[1, 'success', 200, null]],
      );
    });

    it('retries a failed delivery from the log: pending now, attempt numbers continue, same body', async () => {
      answer = { status: 500 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/retry`);
      const eventId = await causeEvent(app, admin);
      await deliverNow(app);
      const [failed] = await deliveryRows(app, endpoint.id);
      assert.equal(failed?.status, 'failed');
      assert.equal(failed?.attempt_count, 2);

      answer = { status: 200 };
      const retried = await op('webhooks.deliveries.retry', { id: failed?.id });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.data.status, 'pending');
      assert.equal(retried.data.next_attempt_at, app.clock.now().toISOString());
      await deliverNow(app);
      const sent = receiver.requests.filter(
        (r) => r.headers['service-event-id'] === eventId && r.path === '/retry',
      );
      assert.deepEqual(
        sent.map((r) => r.headers['service-delivery-attempt']),
        ['1', '2', '3'],
      );
      assert.equal(new Set(sent.map((r) => r.body)).size, 1);
      const after = await op('webhooks.deliveries.get', { id: failed?.id });
      assert.equal(after.data.status, 'succeeded');
      assert.equal((after.data as unknown as Delivery).attempts?.length, 3);

      // A retried delivery that fails again gets one attempt, then stops.
      answer = { status: 500 };
      const againEvent = await causeEvent(app, admin);
      await deliverNow(app);
      const again = (await deliveryRows(app, endpoint.id)).find((d) => d.event_id === againEvent);
      await op('webhooks.deliveries.retry', { id: again?.id });
      await deliverNow(app);
      const final = await op('webhooks.deliveries.get', { id: again?.id });
      assert.equal(final.data.status, 'failed');
      assert.equal(final.data.attempt_count, 3);
    });

    it('refuses to retry pending or succeeded deliveries and deliveries of a disabled endpoint', async () => {
      answer = { status: 200 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/refuse`);
      await causeEvent(app, admin);
      const [pending] = await deliveryRows(app, endpoint.id);
      const early = await op('webhooks.deliveries.retry', { id: pending?.id });
      assert.equal(early.status, 409);
      assert.equal(early.error.code, 'invalid_state');
      assert.equal(early.error.state, 'pending');
      await deliverNow(app);
      const done = await op('webhooks.deliveries.retry', { id: pending?.id });
      assert.equal(done.status, 409);
      assert.equal(done.error.state, 'succeeded');

      // 410 turns the endpoint off and cancels what was waiting.
      answer = { status: 410 };
      await causeEvent(app, admin);
      await deliverNow(app);
      assert.equal((await endpointRow(app, endpoint.id)).status, 'disabled');
      const [, gone] = await deliveryRows(app, endpoint.id);
      const refused = await op('webhooks.deliveries.retry', { id: gone?.id });
      assert.equal(refused.status, 409);
      assert.equal(refused.error.code, 'invalid_state');
      assert.equal(refused.error.state, 'failed');
      assert.equal(refused.error.endpoint_status, 'disabled');

      // Turned back on by an administrator: the failed delivery can go again.
      const row = await endpointRow(app, endpoint.id);
      await withUnit(
        app.services,
        {
          organizationId: admin.organizationId,
          actor: { type: 'job', job: 'test.enable' },
          operation: 'test.enable',
        },
        (unit) => enableEndpoint(unit, { id: endpoint.id, expectedRevision: row.revision }),
      );
      answer = { status: 200 };
      const ok = await op('webhooks.deliveries.retry', { id: gone?.id });
      assert.equal(ok.status, 200);
      await deliverNow(app);
      const final = await op('webhooks.deliveries.get', { id: gone?.id });
      assert.equal(final.data.status, 'succeeded');
      assert.equal(final.data.attempt_count, 2);
    });

    it("keeps each organization's delivery log to itself", async () => {
      answer = { status: 500 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/isolated`);
      await causeEvent(app, admin);
      await deliverNow(app);
      const [delivery] = await deliveryRows(app, endpoint.id);
      assert.ok(delivery);
      const list = await op('webhooks.deliveries.list', {}, other);
      assert.equal(list.status, 200);
      assert.deepEqual(list.data.items, []);
      const filtered = await op('webhooks.deliveries.list', { endpointId: endpoint.id }, other);
      assert.deepEqual(filtered.data.items, []);
      for (const name of ['webhooks.deliveries.get', 'webhooks.deliveries.retry']) {
        const res = await op(name, { id: delivery.id }, other);
        assert.equal(res.status, 404, name);
        assert.equal(res.error.code, 'not_found');
      }
      assert.equal((await deliveryRows(app, endpoint.id))[0]?.status, 'failed', 'nothing changed');
    });

    it('signs with the new secret as soon as it is rotated', async () => {
      answer = { status: 200 };
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/rotate`);
      const before = await causeEvent(app, admin);
      await deliverNow(app);
      const rotated = await op('webhooks.endpoints.rotateSecret', {
        id: endpoint.id,
        expectedRevision: endpoint.revision,
        idempotencyKey: `rotate-${endpoint.id}`,
      });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const newSecret = rotated.data.secret as string;
      assert.notEqual(newSecret, endpoint.secret);
      const afterRotation = await causeEvent(app, admin);
      await deliverNow(app);
      const now = Math.floor(app.clock.now().getTime() / 1000);
      const check = (eventId: string, secret: string) => {
        const request = receiver.requests.find(
          (r) => r.headers['service-event-id'] === eventId && r.path === '/rotate',
        );
        assert.ok(request);
        const header = String(request.headers['service-signature']);
        return verifySignature({ payload: request.body, header, secret, now }).ok;
      };
      assert.equal(check(before, endpoint.secret), true);
      assert.equal(check(afterRotation, newSecret), true);
      assert.equal(check(afterRotation, endpoint.secret), false, 'the old secret no longer verifies');
    });
  });
}
