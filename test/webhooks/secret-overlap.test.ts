import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../../sdk/webhook-signature.ts';
import { DAY, SECOND } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { addEndpoint, causeEvent, deliverNow, FAST_DELIVERY_ENV } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Rotation overlap: a real receiver checks every delivery against the new and against the old
 * secret, as a receiver mid-deployment would.
 */
for (const dialect of DIALECTS) {
  describe(`webhook secret rotation overlap (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let receiver: WebhookReceiver;
    before(async () => {
      app = await startTestApp(dialect, {
        env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_SECRET_OVERLAP: '24h' },
      });
      admin = await createCaller(app);
      receiver = await startWebhookReceiver({ status: 200 });
    });
    after(async () => {
      await receiver.close();
      await app.close();
    });

    const signatureOf = (eventId: string) => {
      const request = receiver.requests.find((r) => r.headers['service-event-id'] === eventId);
      assert.ok(request, `delivered ${eventId}`);
      return { body: request.body, header: String(request.headers['service-signature']) };
    };
    const verifies = (eventId: string, secret: string | string[]) => {
      const { body, header } = signatureOf(eventId);
      const now = Math.floor(app.clock.now().getTime() / 1000);
      return verifySignature({ payload: body, header, secret, now }).ok;
    };

    it('signs with the new and the old secret for the overlap, then with the new one only', async () => {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/overlap`);
      const rotated = await call(
        app.baseUrl,
        'webhooks.endpoints.rotateSecret',
        { id: endpoint.id, expectedRevision: endpoint.revision, idempotencyKey: `rotate-${endpoint.id}` },
        { token: admin.token },
      );
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const newSecret = rotated.data.secret as string;
      const oldSecret = endpoint.secret;
      assert.ok(!JSON.stringify(rotated.body).includes(oldSecret), 'the old secret is never returned');

      app.clock.advance(DAY - 10 * SECOND);
      const during = await causeEvent(app, admin);
      await deliverNow(app);
      const header = signatureOf(during).header;
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/, header);
      assert.equal(verifies(during, newSecret), true, 'a receiver with the new secret');
      assert.equal(verifies(during, oldSecret), true, 'a receiver still on the old secret');
      assert.equal(verifies(during, 'whsec_someone_else_entirely_0000000000000'), false);
      assert.equal(verifies(during, ['whsec_wrong_one_000000000000000000000000000', newSecret]), true);

      app.clock.advance(20 * SECOND);
      const later = await causeEvent(app, admin);
      await deliverNow(app);
      assert.match(signatureOf(later).header, /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(verifies(later, newSecret), true);
      assert.equal(verifies(later, oldSecret), false, 'the overlap is over');
    });
  });
}

describe('webhook secret rotation without overlap', () => {
  it('ACCOUNTING_WEBHOOK_SECRET_OVERLAP=0 stops the old secret at once', async () => {
    const app = await startTestApp('sqlite', {
      env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_SECRET_OVERLAP: '0' },
    });
    const receiver = await startWebhookReceiver({ status: 200 });
    try {
      const admin = await createCaller(app);
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/no-overlap`);
      const rotated = await call(
        app.baseUrl,
        'webhooks.endpoints.rotateSecret',
        { id: endpoint.id, expectedRevision: endpoint.revision, idempotencyKey: `rotate-${endpoint.id}` },
        { token: admin.token },
      );
      assert.equal(rotated.status, 200);
      const eventId = await causeEvent(app, admin);
      await deliverNow(app);
      const request = receiver.requests.find((r) => r.headers['service-event-id'] === eventId);
      assert.ok(request);
      const header = String(request.headers['service-signature']);
      const now = Math.floor(app.clock.now().getTime() / 1000);
      assert.equal(
        verifySignature({ payload: request.body, header, secret: rotated.data.secret as string, now }).ok,
        true,
      );
      assert.equal(
        verifySignature({ payload: request.body, header, secret: endpoint.secret, now }).ok,
        false,
      );
    } finally {
      await receiver.close();
      await app.close();
    }
  });
});
