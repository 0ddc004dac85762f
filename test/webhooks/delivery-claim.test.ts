import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { SECOND } from '../../src/lib/clock.ts';
import { createServices, type Services } from '../../src/services.ts';
import { loadAttemptContexts, performAttempt } from '../../src/webhooks/delivery/attempt.ts';
import { failAbandoned } from '../../src/webhooks/delivery/queue/abandoned.ts';
import { claimDeliveries } from '../../src/webhooks/delivery/queue/claim.ts';
import type { ClaimOptions } from '../../src/webhooks/delivery/queue/claimable.ts';
import { deliverDue, drainDeliveries } from '../../src/webhooks/delivery/worker.ts';
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
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** A gate the test opens: held answers wait for it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A first-attempt claim as a worker with the default cap (2 per endpoint) makes it. */
function firstClaim(now: Date, workerId: string, extra: Partial<ClaimOptions> = {}): ClaimOptions {
  return {
    now,
    workerId,
    leaseMs: 60_000,
    limit: 10,
    kind: 'first',
    endpointConcurrency: 2,
    maxAttempts: 8,
    ...extra,
  };
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery claims (${dialect})`, () => {
    let app: TestApp;
    // Each test has its own organization, so events of one never fan out to another's endpoints.
    let admin: Caller;
    const workers: Services[] = [];
    before(async () => {
      app = await startTestApp(dialect, { env: FAST_DELIVERY_ENV });
    });
    beforeEach(async () => {
      admin = await createCaller(app);
    });
    afterEach(async () => {
      for (const worker of workers.splice(0)) {
        await drainDeliveries(worker);
        await worker.db.close();
      }
    });
    after(() => app.close());

    /** Another worker process in all but name: its own connection, settings and worker id. */
    async function worker(env: Record<string, string> = {}): Promise<Services> {
      const config = loadConfig({ ...FAST_DELIVERY_ENV, LOG_LEVEL: 'silent', ...env });
      const db = openDatabase({
        databaseUrl: app.database.url,
        dataDir: app.database.env.ACCOUNTING_DATA_DIR,
        poolSize: 10,
      });
      const services = await createServices(config, {
        db,
        clock: app.clock,
        logger: pino({ level: 'silent' }),
      });
      workers.push(services);
      return services;
    }

    /** Runs the delivery step of each worker in its own loop until stopped. */
    function loops(services: Services[]): { stop: () => Promise<void> } {
      let stopping = false;
      const running = services.map(async (s) => {
        while (!stopping) {
          if ((await deliverDue(s)) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        }
      });
      return {
        async stop() {
          stopping = true;
          await Promise.all(running);
          // A step may end on its poll while an attempt is still recording its outcome; wait for it,
          // so what the test reads next is settled (under load this raced).
          await Promise.all(services.map((s) => drainDeliveries(s)));
        },
      };
    }

    it('holds a slow endpoint to 2 attempts in flight (across two workers) while others keep flowing', async () => {
      const held = gate();
      const slow = await startWebhookReceiver({ status: 200, until: held.promise });
      const healthy = await startWebhookReceiver({ status: 200 });
      const env = { ACCOUNTING_WEBHOOK_TIMEOUT: '10s', ACCOUNTING_WEBHOOK_LEASE: '30s' };
      // better-sqlite3 is synchronous: two connections of one process cannot wait for each other's
      // write lock, so SQLite runs one worker here (several processes: delivery-crash.test.ts).
      const pair = dialect === 'postgres' ? [await worker(env), await worker(env)] : [await worker(env)];
      try {
        const slowEndpoint = await addEndpoint(app, admin, slow.url);
        const healthyEndpoint = await addEndpoint(app, admin, healthy.url);
        for (let i = 0; i < 8; i++) await causeEvent(app, admin);
        const running = loops(pair);
        await until(
          async () => (await deliveryRows(app, healthyEndpoint.id)).every((d) => d.status === 'succeeded'),
          'the healthy endpoint to receive all 8 events',
        );
        assert.equal(slow.requests.length, 2, 'the slow endpoint got exactly its 2 slots');
        assert.equal(slow.open().max, 2);
        held.open();
        await until(
          async () => (await deliveryRows(app, slowEndpoint.id)).every((d) => d.status === 'succeeded'),
          'the slow endpoint to catch up',
        );
        await running.stop();
        assert.equal(slow.open().max, 2, 'never more than 2 at once');
        assert.equal(slow.requests.length, 8);
        assert.equal(healthy.requests.length, 8);
      } finally {
        held.open();
        await slow.close();
        await healthy.close();
      }
    });

    it('lets a worker hold twice the cap of an endpoint that only it serves, sending the cap at once, until another worker holds one', async () => {
      const a = await addEndpoint(app, admin, 'http://localhost:9/held');
      const b = await addEndpoint(app, admin, 'http://localhost:9/shared');
      for (let i = 0; i < 6; i++) await causeEvent(app, admin);
      const options = (workerId: string, limit: number) =>
        firstClaim(app.clock.now(), workerId, { limit, endpointHold: 4 });
      const mine = (claimed: Awaited<ReturnType<typeof claimDeliveries>>, endpointId: string) =>
        claimed.filter((c) => c.endpointId === endpointId).length;
      // Another worker holds one lease of b first.
      const other = await claimDeliveries(app.services.db, { ...options('other', 1), endpointHold: 2 });
      const otherHeld = mine(other, a.id) + mine(other, b.id);
      assert.equal(otherHeld, 1);
      const shared = mine(other, b.id) === 1 ? b : a;
      const alone = shared === b ? a : b;
      const claimed = await claimDeliveries(app.services.db, options('holder', 100));
      assert.equal(mine(claimed, alone.id), 4, 'every lease of this endpoint is ours: up to twice the cap');
      assert.equal(
        mine(claimed, shared.id),
        1,
        'another worker holds one: up to the cap, all workers together',
      );
      const again = await claimDeliveries(app.services.db, options('holder', 100));
      assert.equal(mine(again, alone.id) + mine(again, shared.id), 0, 'nothing more while we hold 4 and 2');
      const third = await claimDeliveries(app.services.db, options('third', 100));
      assert.equal(mine(third, alone.id) + mine(third, shared.id), 0, 'a third worker finds both full');
    });

    it('gives an endpoint no bigger share of a claim than its due deliveries, so the rest goes to others', async () => {
      const small: string[] = [];
      for (let i = 0; i < 4; i++)
        small.push((await addEndpoint(app, admin, `http://localhost:9/small-${i}`)).id);
      const big = (await addEndpoint(app, admin, 'http://localhost:9/big')).id;
      for (let i = 0; i < 6; i++) await causeEvent(app, admin);
      const { kysely } = app.services.db;
      // Each small endpoint keeps its oldest delivery waiting; the big one all six, due a moment
      // later, so the small ones come first in the claim's order.
      for (const endpointId of small) {
        const [, ...done] = await deliveryRows(app, endpointId);
        await kysely
          .updateTable('webhook_deliveries')
          .set({ status: 'succeeded' })
          .where(
            'id',
            'in',
            done.map((d) => d.id),
          )
          .execute();
      }
      app.clock.advance(1);
      await kysely
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: app.clock.now().toISOString() })
        .where('endpoint_id', '=', big)
        .execute();
      const claimed = await claimDeliveries(
        app.services.db,
        firstClaim(app.clock.now(), 'sharer', { limit: 8, endpointHold: 4 }),
      );
      for (const endpointId of small)
        assert.equal(claimed.filter((c) => c.endpointId === endpointId).length, 1);
      assert.equal(
        claimed.filter((c) => c.endpointId === big).length,
        4,
        'the rest of the limit went to the big one',
      );
    });

    it('a held delivery whose endpoint is archived while it waits for its turn is never sent', async () => {
      const held = gate();
      const slow = await startWebhookReceiver({ status: 200, until: held.promise });
      const single = await worker({ ACCOUNTING_WEBHOOK_TIMEOUT: '10s', ACCOUNTING_WEBHOOK_LEASE: '30s' });
      try {
        const endpoint = await addEndpoint(app, admin, slow.url);
        for (let i = 0; i < 4; i++) await causeEvent(app, admin);
        const running = loops([single]);
        const leased = async () =>
          (await deliveryRows(app, endpoint.id)).filter((d) => d.status === 'pending' && d.locked_by !== null)
            .length;
        await until(
          async () => slow.requests.length === 2 && (await leased()) === 4,
          'two sent and four held',
        );
        assert.equal(slow.open().now, 2, 'the cap is what is sent at once, not what is held');
        const archive = await call(
          app.baseUrl,
          'webhooks.endpoints.archive',
          { id: endpoint.id, expectedRevision: endpoint.revision },
          { token: admin.token },
        );
        assert.equal(archive.status, 200, JSON.stringify(archive.body));
        // Their claim's reading is now older than a held delivery may use (100 ms): their turns
        // come with a fresh reading of the endpoint.
        await new Promise((resolve) => setTimeout(resolve, 150));
        held.open();
        await until(async () => slow.open().now === 0, 'the two in flight to finish');
        await new Promise((resolve) => setTimeout(resolve, 300));
        await running.stop();
        assert.equal(
          slow.requests.length,
          2,
          'the two held deliveries read the endpoint again and stayed home',
        );
        const rows = await deliveryRows(app, endpoint.id);
        assert.deepEqual(
          rows.map((d) => d.status),
          ['cancelled', 'cancelled', 'cancelled', 'cancelled'],
        );
      } finally {
        held.open();
        await slow.close();
      }
    });

    it('renews the lease of a held delivery that would not outlast its attempt, and sends it', async () => {
      const receiver = await startWebhookReceiver({ status: 200 });
      try {
        const endpoint = await addEndpoint(app, admin, receiver.url);
        await causeEvent(app, admin);
        const claimed = (
          await claimDeliveries(app.services.db, firstClaim(app.clock.now(), 'late-turn', { leaseMs: 5_000 }))
        ).filter((c) => c.endpointId === endpoint.id);
        assert.equal(claimed.length, 1);
        const [delivery] = claimed;
        assert.ok(delivery);
        const contexts = await loadAttemptContexts(app.services, claimed);
        const attempt = (workerId: string) =>
          performAttempt(
            {
              services: app.services,
              settings: app.services.config.webhooks.delivery,
              workerId,
              delayBefore: () => 30_000,
              record: async () => {},
              sendTurn: async () => ({
                waited: true,
                stale: false,
                cancelled: false,
                answered: () => {},
                giveBack: () => {},
              }),
            },
            delivery,
            contexts.get(delivery.id),
          );
        // Its turn comes 4.5 s after the claim: 0.5 s of lease left, less than the 400 ms deadline
        // plus the margin.
        app.clock.advance(4_500);
        // A worker that does not hold the lease renews nothing and sends nothing.
        await attempt('someone-else');
        assert.equal(receiver.requests.length, 0, 'not ours: nothing sent');
        await attempt('late-turn');
        assert.equal(receiver.requests.length, 1, 'renewed, then sent');
        const [row] = await deliveryRows(app, endpoint.id);
        assert.equal(
          new Date(row?.locked_until ?? 0).getTime(),
          app.clock.now().getTime() + app.services.config.webhooks.delivery.leaseMs,
          'the lease runs a whole lease from the turn',
        );
      } finally {
        await receiver.close();
      }
    });

    it('never makes first attempts wait behind retries (separate budgets)', async () => {
      const held = gate();
      let failing = true;
      const retrying = await startWebhookReceiver(() =>
        failing ? { status: 500 } : { status: 200, until: held.promise },
      );
      const fresh = await startWebhookReceiver({ status: 200 });
      // One slot for first attempts and one for retries, per worker.
      const single = await worker({
        ACCOUNTING_WEBHOOK_CONCURRENCY: '1',
        ACCOUNTING_WEBHOOK_RETRY_CONCURRENCY: '1',
        ACCOUNTING_WEBHOOK_TIMEOUT: '10s',
        ACCOUNTING_WEBHOOK_LEASE: '30s',
      });
      try {
        const retryEndpoint = await addEndpoint(app, admin, retrying.url);
        await causeEvent(app, admin);
        await deliverNow(app);
        assert.equal(retrying.requests.length, 1);
        failing = false;
        app.clock.advance(30 * SECOND);
        // The retry is now due and will hang; a first attempt to another endpoint arrives meanwhile.
        const freshEndpoint = await addEndpoint(app, admin, fresh.url);
        await app.services.db.kysely
          .updateTable('webhook_endpoints')
          .set({ events: JSON.stringify(['invoice.*']) })
          .where('id', '=', retryEndpoint.id)
          .execute();
        await causeEvent(app, admin);
        const running = loops([single]);
        await until(async () => retrying.requests.length === 2, 'the retry to start');
        await until(
          async () => (await deliveryRows(app, freshEndpoint.id)).every((d) => d.status === 'succeeded'),
          'the first attempt to another endpoint',
        );
        assert.equal(retrying.open().now, 1, 'the retry is still in flight');
        held.open();
        await running.stop();
        assert.equal((await deliveryRows(app, retryEndpoint.id))[0]?.status, 'succeeded');
      } finally {
        held.open();
        await retrying.close();
        await fresh.close();
      }
    });

    it('lets a lapsed lease be claimed again, with the next attempt number', async () => {
      const receiver = await startWebhookReceiver({ status: 200 });
      try {
        const endpoint = await addEndpoint(app, admin, receiver.url);
        await causeEvent(app, admin);
        const options = firstClaim(app.clock.now(), 'crashed-worker', { leaseMs: 5_000 });
        const claimed = await claimDeliveries(app.services.db, options);
        const mine = claimed.filter((c) => c.endpointId === endpoint.id);
        assert.equal(mine.length, 1);
        assert.equal(mine[0]?.attemptNumber, 1);
        // The claimer "dies": nothing is sent. While the lease lives nobody else takes it.
        const again = await claimDeliveries(app.services.db, {
          ...options,
          kind: 'retry',
          workerId: 'other',
          now: app.clock.now(),
        });
        assert.equal(
          again.some((c) => c.endpointId === endpoint.id),
          false,
        );
        app.clock.advance(5_001);
        await deliverNow(app);
        assert.equal(receiver.requests.length, 1);
        assert.equal(receiver.requests[0]?.headers['service-delivery-attempt'], '2');
        const [delivery] = await deliveryRows(app, endpoint.id);
        assert.equal(delivery?.status, 'succeeded');
        assert.equal(delivery?.attempt_count, 2);
      } finally {
        await receiver.close();
      }
    });

    it('fails a delivery whose last allowed attempt died with its worker, without sending more', async () => {
      const receiver = await startWebhookReceiver({ status: 200 });
      try {
        const endpoint = await addEndpoint(app, admin, receiver.url);
        await causeEvent(app, admin);
        const [row] = await deliveryRows(app, endpoint.id);
        await app.services.db.kysely
          .updateTable('webhook_deliveries')
          .set({ attempt_count: 8, locked_until: app.clock.now().toISOString(), locked_by: 'dead' })
          .where('id', '=', row?.id ?? '')
          .execute();
        app.clock.advance(1);
        assert.equal(await failAbandoned(app.services.db, app.clock.now(), 8), 1);
        await deliverNow(app);
        assert.equal(receiver.requests.length, 0);
        const [after] = await deliveryRows(app, endpoint.id);
        assert.equal(after?.status, 'failed');
        assert.match(after?.last_error ?? '', /worker stopped/);
      } finally {
        await receiver.close();
      }
    });

    const racing = dialect === 'postgres' ? it : it.skip;

    racing(
      'never hands one delivery to two racing claimers, and keeps every endpoint to its cap',
      async () => {
        const receivers: WebhookReceiver[] = [];
        try {
          const endpointIds: string[] = [];
          for (let i = 0; i < 5; i++) {
            const receiver = await startWebhookReceiver();
            receivers.push(receiver);
            endpointIds.push((await addEndpoint(app, admin, receiver.url)).id);
          }
          for (let i = 0; i < 12; i++) await causeEvent(app, admin);
          const claimers = [await worker(), await worker(), await worker(), await worker()];
          const now = app.clock.now();
          const rounds = await Promise.all(
            claimers.flatMap((services, index) =>
              [0, 1, 2].map((round) =>
                claimDeliveries(services.db, firstClaim(now, `racer-${index}-${round}`, { limit: 4 })),
              ),
            ),
          );
          const raced = rounds.flat().filter((c) => endpointIds.includes(c.endpointId));
          for (const endpointId of endpointIds) {
            const count = raced.filter((c) => c.endpointId === endpointId).length;
            assert.ok(count <= 2, `${count} claimed for one endpoint while racing: above the cap of 2`);
          }
          // Claimers racing for one endpoint skip it rather than wait; a later claim takes the rest.
          const rest = await claimDeliveries(
            app.services.db,
            firstClaim(now, 'after-the-race', { limit: 100 }),
          );
          const claimed = [...raced, ...rest.filter((c) => endpointIds.includes(c.endpointId))];
          const ids = claimed.map((c) => c.id);
          assert.equal(new Set(ids).size, ids.length, 'no delivery claimed twice');
          for (const endpointId of endpointIds) {
            const count = claimed.filter((c) => c.endpointId === endpointId).length;
            assert.equal(count, 2, 'exactly the cap of 2 per endpoint, never more');
          }
        } finally {
          for (const receiver of receivers) await receiver.close();
        }
      },
    );

    racing(
      'racing claimers that hold: an endpoint is held by one worker (up to twice the cap) or shared within the cap',
      async () => {
        const endpointIds: string[] = [];
        for (let i = 0; i < 5; i++)
          endpointIds.push((await addEndpoint(app, admin, `http://localhost:9/race-${i}`)).id);
        for (let i = 0; i < 12; i++) await causeEvent(app, admin);
        const claimers = [await worker(), await worker(), await worker(), await worker()];
        const now = app.clock.now();
        const rounds = await Promise.all(
          claimers.flatMap((services, index) =>
            [0, 1, 2].map(async (round) => {
              const claimed = await claimDeliveries(
                services.db,
                firstClaim(now, `holder-${index}`, { limit: 3 + round, endpointHold: 4 }),
              );
              return claimed.map((c) => ({ ...c, worker: index }));
            }),
          ),
        );
        const raced = rounds.flat().filter((c) => endpointIds.includes(c.endpointId));
        const ids = raced.map((c) => c.id);
        assert.equal(new Set(ids).size, ids.length, 'no delivery claimed twice');
        assert.ok(raced.length > 0);
        for (const endpointId of endpointIds) {
          const leases = raced.filter((c) => c.endpointId === endpointId);
          const holders = new Set(leases.map((c) => c.worker));
          if (holders.size <= 1) assert.ok(leases.length <= 4, `${leases.length} held by one worker`);
          else assert.ok(leases.length <= 2, `${leases.length} leases shared by ${holders.size} workers`);
        }
      },
    );

    racing('two workers delivering the same queue never send the same attempt twice', async () => {
      const receiver = await startWebhookReceiver({ status: 200 });
      const racers = [await worker(), await worker()];
      try {
        const endpoints = [
          await addEndpoint(app, admin, `${receiver.url}/1`),
          await addEndpoint(app, admin, `${receiver.url}/2`),
          await addEndpoint(app, admin, `${receiver.url}/3`),
        ];
        for (let i = 0; i < 30; i++) await causeEvent(app, admin);
        const running = loops(racers);
        await until(async () => {
          for (const endpoint of endpoints) {
            if (!(await deliveryRows(app, endpoint.id)).every((d) => d.status === 'succeeded')) return false;
          }
          return true;
        }, 'every delivery to succeed');
        await running.stop();
        const mine = receiver.requests.filter((r) => /^\/[123]$/.test(r.path));
        const pairs = mine.map(
          (r) => `${r.headers['service-delivery-id']}#${r.headers['service-delivery-attempt']}`,
        );
        assert.equal(new Set(pairs).size, pairs.length, 'no (delivery, attempt) sent twice');
        assert.equal(mine.length, 90, 'each of the 90 deliveries exactly once');
      } finally {
        await receiver.close();
      }
    });
  });
}
