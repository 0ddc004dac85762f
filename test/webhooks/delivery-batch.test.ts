import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { asJson } from '../../src/db/values.ts';
import { newId } from '../../src/lib/ids.ts';
import type { AttemptDeps } from '../../src/webhooks/delivery/attempt.ts';
import { type Outcome, recordOutcomes } from '../../src/webhooks/delivery/outcome.ts';
import { OutcomeBatcher } from '../../src/webhooks/delivery/outcome-batch.ts';
import { claimDeliveries } from '../../src/webhooks/delivery/queue/claim.ts';
import type { ClaimOptions } from '../../src/webhooks/delivery/queue/claimable.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import {
  addEndpoint,
  attemptRows,
  deliveryRows,
  endpointRow,
  FAST_DELIVERY_ENV,
} from '../support/webhook-delivery.ts';

const SUCCESS = {
  outcome: 'success',
  status: 200,
  durationMs: 1,
  responseExcerpt: 'ok',
  responseTruncated: false,
} as const;
const FAILURE = {
  outcome: 'failure',
  status: 500,
  durationMs: 1,
  responseExcerpt: '',
  responseTruncated: false,
  errorClass: 'http_status',
  errorMessage: 'HTTP 500',
} as const;

describe('outcome batcher', () => {
  it('gathers outcomes handed in while other attempts run into one write, and waits for none when alone', async () => {
    const writes: number[][] = [];
    let running = 3;
    const batcher = new OutcomeBatcher<number>(
      async (items) => {
        writes.push(items);
      },
      { maxWaitMs: 1_000, running: () => running },
    );
    const first = batcher.add(1);
    running = 2;
    const second = batcher.add(2);
    // The last attempt still running hands its outcome in: nothing else can join, so it is written.
    running = 0;
    const third = batcher.add(3);
    await Promise.all([first, second, third]);
    assert.deepEqual(writes, [[1, 2, 3]]);
    // Alone: written at once, without waiting for the 1 s limit.
    await batcher.add(4);
    assert.deepEqual(writes, [[1, 2, 3], [4]]);
  });

  it('writes at most maxBatch at once, and outcomes gathered during a write go in the next one', async () => {
    const writes: number[][] = [];
    const batcher = new OutcomeBatcher<number>(
      async (items) => {
        writes.push(items);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
      { maxBatch: 2, maxWaitMs: 1_000, running: () => 1 },
    );
    const all = [batcher.add(1), batcher.add(2), batcher.add(3), batcher.add(4), batcher.add(5)];
    await Promise.all(all.slice(0, 4));
    const late = batcher.add(6);
    await Promise.all([...all, late]);
    assert.deepEqual(writes.flat(), [1, 2, 3, 4, 5, 6]);
    assert.ok(writes.every((batch) => batch.length <= 2));
  });

  it('retries a failed batch outcome by outcome: only the bad one fails', async () => {
    const writes: number[][] = [];
    const batcher = new OutcomeBatcher<number>(
      async (items) => {
        writes.push(items);
        if (items.includes(2)) throw new Error('bad row 2');
      },
      { maxWaitMs: 1_000, running: () => 1, maxBatch: 3 },
    );
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2), batcher.add(3)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(writes, [[1, 2, 3], [1], [2], [3]]);
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook outcomes written in one transaction (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect, { env: FAST_DELIVERY_ENV });
    });
    beforeEach(async () => {
      admin = await createCaller(app);
    });
    after(() => app.close());

    function deps(workerId: string): AttemptDeps {
      return {
        services: app.services,
        settings: app.services.config.webhooks.delivery,
        workerId,
        delayBefore: (n) => (n <= 8 ? 30_000 : undefined),
        record: () => Promise.resolve(),
      };
    }

    /** Pending deliveries of new events to `endpointId`, inserted directly (setup only). */
    async function seed(
      endpointId: string,
      count: number,
      at: { nextAttemptAt: string; attemptCount?: number },
    ) {
      const { kysely } = app.services.db;
      for (let start = 0; start < count; start += 500) {
        const size = Math.min(500, count - start);
        const events = Array.from({ length: size }, () => ({
          id: newId(),
          organization_id: admin.organizationId,
          type: 'contractor.created',
          subject_type: 'contractor',
          subject_id: newId(),
          data: '{}',
          request_id: null,
          created_at: at.nextAttemptAt,
        }));
        await kysely.insertInto('events').values(events).execute();
        await kysely
          .insertInto('webhook_deliveries')
          .values(
            events.map((event) => ({
              id: newId(),
              organization_id: admin.organizationId,
              endpoint_id: endpointId,
              event_id: event.id,
              status: 'pending',
              attempt_count: at.attemptCount ?? 0,
              attempt_limit: null,
              next_attempt_at: at.nextAttemptAt,
              locked_until: null,
              locked_by: null,
              last_status_code: null,
              last_error: null,
              created_at: at.nextAttemptAt,
              updated_at: at.nextAttemptAt,
              completed_at: null,
            })),
          )
          .execute();
      }
    }

    const claimOptions = (workerId: string, extra: Partial<ClaimOptions> = {}): ClaimOptions => ({
      now: app.clock.now(),
      workerId,
      leaseMs: 5_000,
      limit: 16,
      kind: 'first',
      endpointConcurrency: 2,
      maxAttempts: 8,
      ...extra,
    });

    it('settles several outcomes of several endpoints in one batch: deliveries, attempt rows, counters', async () => {
      const a = await addEndpoint(app, admin, 'http://localhost:9/a');
      const b = await addEndpoint(app, admin, 'http://localhost:9/b');
      await seed(a.id, 2, { nextAttemptAt: app.clock.now().toISOString() });
      await seed(b.id, 2, { nextAttemptAt: app.clock.now().toISOString() });
      const claimed = await claimDeliveries(app.services.db, claimOptions('batcher'));
      const mine = claimed.filter((c) => c.endpointId === a.id || c.endpointId === b.id);
      assert.equal(mine.length, 4);
      const outcomes: Outcome[] = mine.map((c) => ({
        claimed: c,
        result: c.endpointId === a.id ? SUCCESS : FAILURE,
        startedAt: app.clock.now(),
      }));
      await recordOutcomes(deps('batcher'), outcomes);
      for (const row of await deliveryRows(app, a.id)) {
        assert.equal(row.status, 'succeeded');
        assert.equal(row.locked_by, null);
        assert.equal((await attemptRows(app, row.id)).length, 1);
      }
      for (const row of await deliveryRows(app, b.id)) {
        assert.equal(row.status, 'pending', 'failed attempt 1 waits for attempt 2');
        assert.equal(row.last_error, 'HTTP 500');
        assert.equal(new Date(row.next_attempt_at).getTime(), app.clock.now().getTime() + 30_000);
        const [attempt] = await attemptRows(app, row.id);
        assert.equal(attempt?.outcome, 'failure');
        assert.equal(attempt?.status_code, 500);
      }
      assert.equal(Number((await endpointRow(app, a.id)).failure_count), 0);
      assert.notEqual((await endpointRow(app, a.id)).last_success_at, null);
      assert.equal(Number((await endpointRow(app, b.id)).failure_count), 2, 'both failures counted');
    });

    it('a success after the 20th failure in one batch does not save the endpoint: it is turned off as if written alone', async () => {
      const run = async (leading: number) => {
        const endpoint = await addEndpoint(app, admin, 'http://localhost:9/peak');
        // 18 failures in a row before this batch, no success ever (setup only).
        await app.services.db.kysely
          .updateTable('webhook_endpoints')
          .set({ failure_count: 18 })
          .where('id', '=', endpoint.id)
          .execute();
        await seed(endpoint.id, leading + 1, { nextAttemptAt: app.clock.now().toISOString() });
        const claimed = (
          await claimDeliveries(app.services.db, claimOptions('peak', { endpointConcurrency: 4 }))
        ).filter((c) => c.endpointId === endpoint.id);
        assert.equal(claimed.length, leading + 1);
        // In the order they finished: the failures, then the success.
        await recordOutcomes(
          deps('peak'),
          claimed.map((c, i) => ({
            claimed: c,
            result: i < leading ? FAILURE : SUCCESS,
            startedAt: app.clock.now(),
          })),
        );
        return { endpoint, row: await endpointRow(app, endpoint.id) };
      };
      // 18 + 2 = 20 failures in a row before the success: off, with the count it reached.
      const reached = await run(2);
      assert.equal(reached.row.status, 'disabled');
      assert.equal(reached.row.disabled_reason, 'consecutive_failures');
      const [event] = await app.services.db.kysely
        .selectFrom('events')
        .select('data')
        .where('type', '=', 'webhook.endpoint.disabled')
        .where('subject_id', '=', reached.endpoint.id)
        .execute();
      assert.equal(asJson<{ failureCount: number }>(event?.data).failureCount, 20);
      // 18 + 1 = 19: the success resets the count and the endpoint stays on.
      const short = await run(1);
      assert.equal(short.row.status, 'active');
      assert.equal(Number(short.row.failure_count), 0);
    });

    it('a lost lease in a batch leaves that delivery untouched and settles the others', async () => {
      const endpoint = await addEndpoint(app, admin, 'http://localhost:9/lost');
      await seed(endpoint.id, 2, { nextAttemptAt: app.clock.now().toISOString() });
      const claimed = (await claimDeliveries(app.services.db, claimOptions('slow-worker'))).filter(
        (c) => c.endpointId === endpoint.id,
      );
      assert.equal(claimed.length, 2);
      // The slow worker stalls past its lease; another worker claims one of the two again.
      app.clock.advance(5_001);
      const [retaken] = (
        await claimDeliveries(app.services.db, claimOptions('other-worker', { kind: 'retry', limit: 1 }))
      ).filter((c) => c.endpointId === endpoint.id);
      const lost = claimed.find((c) => c.id === retaken?.id);
      const kept = claimed.find((c) => c.id !== retaken?.id);
      assert.ok(lost && kept);
      assert.equal(retaken?.attemptNumber, 2);
      await recordOutcomes(deps('slow-worker'), [
        { claimed: kept, result: SUCCESS, startedAt: app.clock.now() },
        { claimed: lost, result: SUCCESS, startedAt: app.clock.now() },
      ]);
      const rows = new Map((await deliveryRows(app, endpoint.id)).map((row) => [row.id, row]));
      assert.equal(rows.get(kept.id)?.status, 'succeeded');
      const untouched = rows.get(lost.id);
      assert.equal(untouched?.status, 'pending', 'the other worker still holds it');
      assert.equal(untouched?.locked_by, 'other-worker');
      assert.equal(untouched?.attempt_count, 2);
      // The attempt happened, so it is logged (attempt 1); attempt 2 belongs to the other worker.
      assert.deepEqual(
        (await attemptRows(app, lost.id)).map((a) => a.attempt_number),
        [1],
      );
    });

    it('claims due work past a large backlog of rows not yet due, and past a busy endpoint’s backlog', async () => {
      const backlog = await addEndpoint(app, admin, 'http://localhost:9/backlog');
      const healthy = await addEndpoint(app, admin, 'http://localhost:9/healthy');
      const now = app.clock.now();
      const later = new Date(now.getTime() + 3_600_000).toISOString();
      const earlier = new Date(now.getTime() - 60_000).toISOString();
      // 3,000 retries an hour from now, and 3,000 first attempts due a minute ago whose endpoint
      // is at its cap (two live leases).
      await seed(backlog.id, 3_000, { nextAttemptAt: later, attemptCount: 1 });
      await seed(backlog.id, 3_000, { nextAttemptAt: earlier });
      const held = await claimDeliveries(app.services.db, claimOptions('holder', { limit: 2 }));
      assert.deepEqual(
        held.map((c) => c.endpointId),
        [backlog.id, backlog.id],
      );
      // Nothing else of the backlog endpoint is claimable now: not the retries (not due), not the
      // first attempts (cap), so a claim finds nothing...
      assert.deepEqual(await claimDeliveries(app.services.db, claimOptions('w', { kind: 'retry' })), []);
      assert.deepEqual(await claimDeliveries(app.services.db, claimOptions('w')), []);
      // ...and the healthy endpoint's one new delivery is claimed at once.
      await seed(healthy.id, 1, { nextAttemptAt: now.toISOString() });
      const claimed = await claimDeliveries(app.services.db, claimOptions('w'));
      assert.deepEqual(
        claimed.map((c) => c.endpointId),
        [healthy.id],
      );
      // An hour later the retries are due too; the holder's leases lapsed long ago, so its two
      // deliveries (due a minute before the rest) come first, within the retry cap of one.
      app.clock.advance(3_600_000);
      const retries = (await claimDeliveries(app.services.db, claimOptions('w2', { kind: 'retry' }))).filter(
        (c) => c.endpointId === backlog.id,
      );
      assert.equal(retries.length, 1);
      assert.ok(held.some((c) => c.id === retries[0]?.id));
      assert.equal(retries[0]?.attemptNumber, 2);
    });
  });
}
