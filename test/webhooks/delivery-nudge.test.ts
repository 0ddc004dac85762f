import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Job, startJobs } from '../../src/jobs/runner.ts';
import { webhookDeliveryJob } from '../../src/jobs/webhook-jobs.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
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

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'condition never became true');
}
