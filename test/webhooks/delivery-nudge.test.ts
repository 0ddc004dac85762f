import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Job, startJobs } from '../../src/jobs/runner.ts';
import { webhookDeliveryJob } from '../../src/jobs/webhook-jobs.ts';
import { newId } from '../../src/lib/ids.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { addEndpoint, causeEvent, FAST_DELIVERY_ENV } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * After-commit nudges: a transaction that commits events wakes this process's delivery loop at
 * once. The loop here polls only once an hour, so a delivery that arrives at all was nudged.
 */
const HOUR = 3_600_000;

describe('job loops wake on their topic', () => {
  it('a nudge ends the idle pause; one that arrives mid-run makes the loop look again', async () => {
    const app = await startTestApp('sqlite');
    try {
      let runs = 0;
      let release: (() => void) | undefined;
      const job: Job = {
        name: 'test.sleepy',
        intervalMs: HOUR,
        wakeOn: ['events'],
        async run() {
          runs += 1;
          // The second run waits until told, so a nudge can arrive while it is running.
          if (runs === 2) await new Promise<void>((resolve) => (release = resolve));
          return 0;
        },
      };
      const jobs = startJobs(app.services, [job]);
      try {
        await until(() => runs === 1);
        app.services.wakeups.notify('events');
        await until(() => runs === 2 && release !== undefined);
        app.services.wakeups.notify('events');
        release?.();
        await until(() => runs === 3);
      } finally {
        await jobs.stop();
      }
      assert.equal(runs, 3);
    } finally {
      await app.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`deliveries start right after the commit (${dialect})`, () => {
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

    it('an API change that records an event is delivered without waiting for the poll', async () => {
      await addEndpoint(app, admin, receiver.url, ['contractor.created']);
      const jobs = startJobs(app.services, [{ ...webhookDeliveryJob, intervalMs: HOUR }]);
      try {
        // The loop's first run finds nothing and sleeps for an hour.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const eventId = await causeEvent(app, admin);
        const received = await receiver.waitFor(
          (request) => request.headers['service-event-id'] === eventId,
          20_000,
        );
        assert.equal(received.headers['service-event-type'], 'contractor.created');
      } finally {
        await jobs.stop();
      }
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`a slow receiver holds back no one else (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let slow: WebhookReceiver;
    let fast: WebhookReceiver;
    before(async () => {
      // The contract's 10 s answer time, so the slow attempt stays in flight throughout.
      app = await startTestApp(dialect, {
        env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_TIMEOUT: '10s', ACCOUNTING_WEBHOOK_LEASE: '60s' },
      });
      admin = await createCaller(app);
      slow = await startWebhookReceiver({ status: 200, delayMs: 9_000 });
      fast = await startWebhookReceiver();
    });
    after(async () => {
      await fast.close();
      await app.close();
    });

    it('events for other endpoints are delivered while an attempt waits on a slow receiver', async () => {
      await addEndpoint(app, admin, slow.url, ['contractor.created']);
      const fastEndpoint = await addEndpoint(app, admin, fast.url, ['contractor.updated']);
      const jobs = startJobs(app.services, [{ ...webhookDeliveryJob, intervalMs: HOUR }]);
      try {
        await causeEvent(app, admin);
        await until(() => slow.open().now === 1);
        // Committed as another process would (no nudge here): found by the pool's own poll.
        const polled = await app.services.db.kysely
          .transaction()
          .execute((trx) =>
            app.services.events.record(
              trx,
              admin.organizationId,
              { type: 'contractor.updated', subject: { type: 'contractor', id: newId() }, data: {} },
              { requestId: null, now: app.services.clock.now() },
            ),
          );
        await fast.waitFor((request) => request.headers['service-event-id'] === polled.id, 20_000);
        assert.equal(slow.open().now, 1, 'the slow attempt is still waiting for its answer');
        // Committed by an operation of this process: the nudge wakes the busy pool too.
        const test = await call(
          app.baseUrl,
          'webhooks.endpoints.test',
          { id: fastEndpoint.id },
          { token: admin.token },
        );
        assert.equal(test.status, 200, JSON.stringify(test.body));
        await fast.waitFor((request) => request.headers['service-event-type'] === 'webhook.test', 20_000);
        assert.equal(slow.open().now, 1, 'the slow attempt is still waiting for its answer');
      } finally {
        // Cut the slow answer short (connection reset) so the loop stops without waiting 9 s.
        await slow.close();
        await jobs.stop();
      }
    });
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'condition never became true');
}
