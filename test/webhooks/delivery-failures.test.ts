import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOUR, SECOND } from '../../src/lib/clock.ts';
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
import { type Answer, refusedPort, startWebhookReceiver } from '../support/webhook-receiver.ts';

for (const dialect of DIALECTS) {
  describe(`webhook delivery failures (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      // The timeout is 400 ms here (FAST_DELIVERY_ENV) instead of the contract's 10 s.
      app = await startTestApp(dialect, { env: FAST_DELIVERY_ENV });
      admin = await createCaller(app);
    });
    after(() => app.close());

    /** One event to a receiver answering `answer`; returns the delivery and its first attempt. */
    async function firstAttemptAgainst(answer: Answer) {
      const receiver = await startWebhookReceiver(answer);
      try {
        const endpoint = await addEndpoint(app, admin, receiver.url);
        await causeEvent(app, admin);
        await deliverNow(app);
        const [delivery] = await deliveryRows(app, endpoint.id);
        assert.ok(delivery);
        const [attempt] = await attemptRows(app, delivery.id);
        assert.ok(attempt);
        return { delivery, attempt, receiver, endpoint };
      } finally {
        await receiver.close();
      }
    }

    function assertRetryScheduled(delivery: {
      status: string;
      next_attempt_at: string;
      attempt_count: number;
    }) {
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempt_count, 1);
      const due = new Date(delivery.next_attempt_at).getTime();
      assert.equal(due, app.clock.now().getTime() + 30 * SECOND, 'attempt 2 is due 30 s later');
    }

    it('counts an answer slower than the deadline as a timeout and schedules a retry', async () => {
      const { delivery, attempt } = await firstAttemptAgainst({ status: 200, delayMs: 1500 });
      assert.equal(attempt.outcome, 'failure');
      assert.equal(attempt.error_class, 'timeout');
      assert.equal(attempt.status_code, null);
      assertRetryScheduled(delivery);
    });

    it('counts a 2xx whose body trickles past the deadline as a timeout', async () => {
      const { delivery, attempt } = await firstAttemptAgainst({
        status: 200,
        body: 'x'.repeat(50),
        slowBody: { chunks: 10, intervalMs: 150 },
      });
      assert.equal(attempt.outcome, 'failure');
      assert.equal(attempt.error_class, 'timeout');
      assertRetryScheduled(delivery);
    });

    it('retries a refused connection', async () => {
      const port = await refusedPort();
      const endpoint = await addEndpoint(app, admin, `http://localhost:${port}`);
      await causeEvent(app, admin);
      await deliverNow(app);
      const [delivery] = await deliveryRows(app, endpoint.id);
      assert.ok(delivery);
      const [attempt] = await attemptRows(app, delivery.id);
      assert.equal(attempt?.error_class, 'connection_refused');
      assertRetryScheduled(delivery);
    });

    it('retries a connection reset without an answer', async () => {
      const { delivery, attempt } = await firstAttemptAgainst({ reset: true });
      assert.equal(attempt.outcome, 'failure');
      assert.equal(attempt.error_class, 'connection_error');
      assertRetryScheduled(delivery);
    });

    it('never follows a redirect: a 3xx is a failure and the target sees nothing', async () => {
      const target = await startWebhookReceiver();
      try {
        const { delivery, attempt } = await firstAttemptAgainst({
          status: 307,
          headers: { location: `${target.url}/elsewhere` },
        });
        assert.equal(attempt.error_class, 'redirect');
        assert.equal(attempt.status_code, 307);
        assert.equal(delivery.last_status_code, 307);
        assertRetryScheduled(delivery);
        assert.equal(target.requests.length, 0);
      } finally {
        await target.close();
      }
    });

    it('keeps nothing of a local answer (issue 31 part 7; the 1024-character cut: safe-client.test.ts)', async () => {
      const { attempt } = await firstAttemptAgainst({
        status: 500,
        body: `${'é'.repeat(1000)}${'z'.repeat(5000)}`,
      });
      assert.equal(attempt.status_code, 500);
      assert.equal(attempt.response_excerpt, '');
    });

    it('fails a delivery for good after the 8th attempt, on the contract schedule', async () => {
      const receiver = await startWebhookReceiver({ status: 503 });
      try {
        const endpoint = await addEndpoint(app, admin, receiver.url);
        await causeEvent(app, admin);
        // Delays before attempts 2..8: 30 s, 1.5 min, 4.5 min, 13.5 min, 40.5 min, 2 h 2 min, 6 h.
        const delays = [30, 90, 270, 810, 2430, 7320, 6 * 3600].map((s) => s * SECOND);
        await deliverNow(app);
        let expected = 1;
        for (const delay of delays) {
          app.clock.advance(delay - 1);
          await deliverNow(app);
          assert.equal(receiver.requests.length, expected, 'not due 1 ms early');
          app.clock.advance(1);
          await deliverNow(app);
          expected += 1;
          assert.equal(receiver.requests.length, expected);
        }
        assert.equal(receiver.requests.length, 8);
        app.clock.advance(24 * HOUR);
        await deliverNow(app);
        assert.equal(receiver.requests.length, 8, 'no ninth attempt');
        const [delivery] = await deliveryRows(app, endpoint.id);
        assert.equal(delivery?.status, 'failed');
        assert.equal(delivery?.attempt_count, 8);
        assert.notEqual(delivery?.completed_at, null);
        const attempts = await attemptRows(app, delivery?.id ?? '');
        assert.deepEqual(
          attempts.map((a) => a.attempt_number),
          [1, 2, 3, 4, 5, 6, 7, 8],
        );
        assert.deepEqual(
          receiver.requests.map((r) => r.headers['service-delivery-attempt']),
          ['1', '2', '3', '4', '5', '6', '7', '8'],
        );
        // Eight failures: below the auto-disable threshold of 20.
        const row = await endpointRow(app, endpoint.id);
        assert.equal(row.failure_count, 8);
        assert.equal(row.status, 'active');
      } finally {
        await receiver.close();
      }
    });
  });
}
