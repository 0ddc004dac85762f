import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { asBool, asJson, dbBool, dbJson } from '../../src/db/values.ts';
import { webhookDeliveryJob } from '../../src/jobs/webhook-jobs.ts';
import { DAY } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { purgeExpiredEvents } from '../../src/webhooks/retention.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { call } from '../support/http.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createEndpoint, insertEvent as insertEventRow } from './endpoint-helpers.ts';

describe('ACCOUNTING_EVENT_RETENTION_DAYS', () => {
  it('defaults to 30 days and accepts 7 to 3650 whole days only', () => {
    assert.equal(loadConfig({}).webhooks.eventRetentionDays, 30);
    assert.equal(loadConfig({ ACCOUNTING_EVENT_RETENTION_DAYS: '7' }).webhooks.eventRetentionDays, 7);
    assert.equal(loadConfig({ ACCOUNTING_EVENT_RETENTION_DAYS: '3650' }).webhooks.eventRetentionDays, 3650);
    for (const bad of ['6', '3651', '30d', '1.5', '-7', 'forever']) {
      assert.throws(
        () => loadConfig({ ACCOUNTING_EVENT_RETENTION_DAYS: bad }),
        /ACCOUNTING_EVENT_RETENTION_DAYS/,
        bad,
      );
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`event retention (${dialect})`, () => {
    let app: TestApp;
    let receiver: WebhookReceiver;
    before(async () => {
      receiver = await startWebhookReceiver((request) => ({ status: request.path === '/fail' ? 500 : 200 }));
      // Two attempts, the second a week after the first: a retry can be pending for days.
      app = await startTestApp(dialect, { env: { ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0,168h' } });
    });
    after(async () => {
      await app.close();
      await receiver.close();
    });

    const eventIds = async (organizationId: string) =>
      (
        await app.services.db.kysely
          .selectFrom('events')
          .select('id')
          .where('organization_id', '=', organizationId)
          .execute()
      ).map((row) => row.id);
    const rowsFor = async (eventId: string) => {
      const deliveries = await app.services.db.kysely
        .selectFrom('webhook_deliveries')
        .select(['id', 'status'])
        .where('event_id', '=', eventId)
        .execute();
      const attempts = await app.services.db.kysely
        .selectFrom('webhook_attempts')
        .select('id')
        .where(
          'delivery_id',
          'in',
          deliveries.map((d) => d.id).concat('00000000-0000-0000-0000-000000000000'),
        )
        .execute();
      return { deliveries, attempts: attempts.length };
    };
    const insertEvent = (organizationId: string, at: Date) =>
      insertEventRow(app, organizationId, 'contractor.updated', at);
    const lastEvent = async (caller: Caller) => {
      const ids = await eventIds(caller.organizationId);
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select(['id', 'type'])
        .where('id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return events.id;
    };

    it('deletes expired events with their deliveries and attempts, keeping pending retries and young events', async () => {
      const caller = await createCaller(app);
      await createEndpoint(app, caller, { url: `${receiver.url}/ok`, events: ['contractor.created'] });
      await createEndpoint(app, caller, { url: `${receiver.url}/fail`, events: ['contractor.updated'] });
      const created = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Ada', legalName: 'Ada Lovelace', email: `ada-${newId()}@example.com` },
        { token: caller.token },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const delivered = await lastEvent(caller);
      const updated = await call(
        app.baseUrl,
        'contractors.update',
        { id: created.data.id, expectedRevision: 1, displayName: 'Ada L.' },
        { token: caller.token },
      );
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const retrying = await lastEvent(caller);
      const undelivered = await insertEvent(caller.organizationId, app.clock.now());
      await app.runJobs([webhookDeliveryJob]);
      assert.deepEqual(
        (await rowsFor(delivered)).deliveries.map((d) => d.status),
        ['succeeded'],
      );
      assert.equal((await rowsFor(delivered)).attempts, 1);
      assert.deepEqual(
        (await rowsFor(retrying)).deliveries.map((d) => d.status),
        ['pending'],
      );

      app.clock.advance(29 * DAY);
      const another = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Bob', legalName: 'Bob Builder', email: `bob-${newId()}@example.com` },
        { token: caller.token },
      );
      assert.equal(another.status, 200);
      const young = await lastEvent(caller);
      app.clock.advance(2 * DAY);

      // Nothing is old enough under a longer retention.
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 31), 0);
      // The two endpoints' creation events, `delivered` and `undelivered`.
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 4);
      assert.deepEqual((await eventIds(caller.organizationId)).sort(), [retrying, young].sort());
      assert.deepEqual(await rowsFor(delivered), { deliveries: [], attempts: 0 });
      assert.deepEqual(await rowsFor(undelivered), { deliveries: [], attempts: 0 });
      assert.equal((await rowsFor(retrying)).attempts, 1);
      const gone = await call(app.baseUrl, 'webhooks.events.get', { id: delivered }, { token: caller.token });
      assertError(gone, 404, 'not_found');
      const kept = await call(app.baseUrl, 'webhooks.events.get', { id: young }, { token: caller.token });
      assert.equal(kept.status, 200);

      // The retry runs and fails for good; the next purge takes that event too.
      await app.runJobs([webhookDeliveryJob]);
      assert.deepEqual(
        (await rowsFor(retrying)).deliveries.map((d) => d.status),
        ['failed'],
      );
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 1);
      assert.deepEqual(await eventIds(caller.organizationId), [young]);
      assert.deepEqual(await rowsFor(retrying), { deliveries: [], attempts: 0 });
    });

    it('works through a backlog in batches, past old events that are still pending', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, {
        url: `${receiver.url}/fail`,
        events: ['contractor.*'],
      });
      // Start from a clean slate: whatever earlier tests left is old enough a year on.
      app.clock.advance(365 * DAY);
      await purgeExpiredEvents(app.services.db, app.clock.now(), 30, 1000);
      const start = app.clock.now().getTime() - 40 * DAY;
      const pending: string[] = [];
      // 600 of the oldest events keep a pending delivery: the purge must look past them.
      for (let i = 0; i < 600; i++) {
        const at = new Date(start + i);
        const id = await insertEvent(caller.organizationId, at);
        pending.push(id);
        await app.services.db.kysely
          .insertInto('webhook_deliveries')
          .values({
            id: newId(),
            organization_id: caller.organizationId,
            endpoint_id: endpoint.id,
            event_id: id,
            status: 'pending',
            attempt_count: 1,
            attempt_limit: null,
            next_attempt_at: new Date(start + 100 * DAY).toISOString(),
            locked_until: null,
            locked_by: null,
            last_status_code: 500,
            last_error: null,
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
            completed_at: null,
          })
          .execute();
      }
      for (let i = 0; i < 1100; i++) await insertEvent(caller.organizationId, new Date(start + 1000 + i));
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 1100);
      assert.deepEqual((await eventIds(caller.organizationId)).sort(), pending.sort());
      // At most `maxBatches` batches per run: the job comes back for the rest.
      for (let i = 0; i < 1200; i++) await insertEvent(caller.organizationId, new Date(start + 5000 + i));
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30, 1), 100);
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 1100);
    });

    it('purges events with hundreds of deliveries each, and keeps one whose attempt is in flight', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, {
        url: `${receiver.url}/ok`,
        events: ['contractor.*'],
      });
      app.clock.advance(365 * DAY);
      await purgeExpiredEvents(app.services.db, app.clock.now(), 30, 1000);
      const { kysely } = app.services.db;
      // 350 endpoints: a batch of 100 events has 35 000 deliveries, more than a statement's parameters.
      const template = await kysely
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      const endpointIds = [endpoint.id];
      for (let i = 1; i < 350; i++) endpointIds.push(newId());
      for (let i = 0; i < endpointIds.length; i += 100) {
        await kysely
          .insertInto('webhook_endpoints')
          .values(
            endpointIds.slice(Math.max(1, i), i + 100).map((id) => ({
              ...template,
              id,
              events: dbJson(asJson(template.events)),
              active: dbBool(asBool(template.active)),
            })),
          )
          .execute();
      }
      const old = new Date(app.clock.now().getTime() - 40 * DAY);
      const events: string[] = [];
      for (let i = 0; i < 100; i++)
        events.push(await insertEvent(caller.organizationId, new Date(old.getTime() + i)));
      const rows = events.flatMap((eventId) =>
        endpointIds.map((endpointId) => ({
          id: newId(),
          organization_id: caller.organizationId,
          endpoint_id: endpointId,
          event_id: eventId,
          status: 'succeeded',
          attempt_count: 1,
          attempt_limit: null,
          next_attempt_at: old.toISOString(),
          locked_until: null,
          locked_by: null,
          last_status_code: 200,
          last_error: null,
          created_at: old.toISOString(),
          updated_at: old.toISOString(),
          completed_at: old.toISOString(),
        })),
      );
      for (let i = 0; i < rows.length; i += 1000) {
        await kysely
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 1000))
          .execute();
      }
      // An archived endpoint's delivery, cancelled while its attempt is still running (leased).
      const inFlight = await insertEvent(caller.organizationId, old);
      await kysely
        .insertInto('webhook_deliveries')
        .values({
          ...(rows[0] as (typeof rows)[number]),
          id: newId(),
          event_id: inFlight,
          status: 'cancelled',
          locked_until: new Date(app.clock.now().getTime() + 60_000).toISOString(),
          locked_by: 'worker-1',
        })
        .execute();
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 100);
      assert.deepEqual(await eventIds(caller.organizationId), [inFlight]);
      const left = await kysely
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', caller.organizationId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 1);
      // Once the lease has lapsed, the event goes too.
      app.clock.advance(120_000);
      assert.equal(await purgeExpiredEvents(app.services.db, app.clock.now(), 30), 1);
      assert.deepEqual(await eventIds(caller.organizationId), []);
    });
  });
}
