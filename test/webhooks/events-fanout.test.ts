import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { AppError } from '../../src/contract/errors.ts';
import { asJson } from '../../src/db/values.ts';
import { defineOperation } from '../../src/operations/define.ts';
import { invoke } from '../../src/operations/execute.ts';
import { withUnit } from '../../src/unit/with-unit.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { createEndpoint, deliveriesOf, eventsOf, markDisabled } from './endpoint-helpers.ts';

/** Emits a contractor.created event through the real pipeline, then fails when told to. */
const emitThenMaybeFail = defineOperation({
  name: 'test.emitThenMaybeFail',
  summary: 'test only',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object({ fail: Type.Boolean() }, { additionalProperties: false }),
  output: Type.Object({ ok: Type.Boolean() }),
  async run({ ctx, input }) {
    await ctx.emit({
      type: 'contractor.created',
      subject: { type: 'contractor', id: '01920000-0000-7000-8000-00000000000c' },
      data: { displayName: 'A', email: 'a@example.com', country: null, jobRoleId: null },
    });
    // Every mutation writes an audit row (the pipeline checks it, decision 394).
    await ctx.audit({
      recordType: 'contractor',
      recordId: '01920000-0000-7000-8000-00000000000c',
      beforeRevision: null,
      afterRevision: 1,
    });
    if (input.fail) throw new AppError('invalid_state', 'failing after the event was written');
    return { ok: true };
  },
});

for (const dialect of DIALECTS) {
  describe(`webhook fan-out (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    function run(caller: Caller, fail: boolean) {
      return invoke(app.services, {
        operation: emitThenMaybeFail,
        principal: {
          organizationId: caller.organizationId,
          memberId: caller.memberId,
          role: 'admin',
          scopes: new Set(['accounting:read']),
          credentialId: `test-${caller.memberId}`,
          credentialType: 'api_key',
        },
        input: { fail },
        idempotencyHeader: `fanout-${Math.random().toString(36).slice(2)}`,
        requestId: 'req_test',
        inputSource: 'body',
      });
    }

    it('writes one pending delivery per matching active endpoint, due at the event time', async () => {
      const caller = await createCaller(app);
      const matching = [
        (await createEndpoint(app, caller, { events: ['contractor.created'] })).endpoint,
        (await createEndpoint(app, caller, { events: ['contractor.*'] })).endpoint,
        (await createEndpoint(app, caller, { events: ['invoice.paid', '*'] })).endpoint,
      ];
      const notMatching = [
        (await createEndpoint(app, caller, { events: ['contractor.updated'] })).endpoint,
        (await createEndpoint(app, caller, { events: ['invitation.*', 'job_role.saved'] })).endpoint,
      ];
      const disabled = (await createEndpoint(app, caller, { events: ['*'] })).endpoint;
      await markDisabled(app, caller.organizationId, disabled.id);
      const archived = (await createEndpoint(app, caller, { events: ['*'] })).endpoint;
      const archive = await call(
        app.baseUrl,
        'webhooks.endpoints.archive',
        { id: archived.id, expectedRevision: 1 },
        { token: caller.token },
      );
      assert.equal(archive.status, 200);
      // Another organization's catch-all endpoint never sees this organization's events.
      const stranger = await createCaller(app);
      await createEndpoint(app, stranger, { events: ['*'] });

      app.clock.advance(60_000);
      await run(caller, false);
      const [event] = await eventsOf(app, caller.organizationId, 'contractor.created');
      assert.ok(event);
      const deliveries = (await deliveriesOf(app, caller.organizationId)).filter(
        (d) => d.event_id === event.id,
      );
      assert.deepEqual(deliveries.map((d) => d.endpoint_id).sort(), matching.map((e) => e.id).sort());
      for (const delivery of deliveries) {
        assert.equal(delivery.status, 'pending');
        assert.equal(delivery.attempt_count, 0);
        assert.equal(new Date(delivery.next_attempt_at).toISOString(), app.clock.now().toISOString());
        assert.equal(delivery.organization_id, caller.organizationId);
      }
      assert.ok(!deliveries.some((d) => notMatching.some((e) => e.id === d.endpoint_id)));
      const strangerDeliveries = await deliveriesOf(app, stranger.organizationId);
      assert.ok(!strangerDeliveries.some((d) => d.event_id === event.id));
    });

    it('a rolled-back operation leaves no event and no delivery', async () => {
      const caller = await createCaller(app);
      await createEndpoint(app, caller, { events: ['*'] });
      const before = {
        events: (await eventsOf(app, caller.organizationId)).length,
        deliveries: (await deliveriesOf(app, caller.organizationId)).length,
      };
      await assert.rejects(run(caller, true), (error: unknown) => error instanceof AppError);
      assert.equal((await eventsOf(app, caller.organizationId)).length, before.events);
      assert.equal((await deliveriesOf(app, caller.organizationId)).length, before.deliveries);
      // The same operation, committed, writes both.
      await run(caller, false);
      assert.equal((await eventsOf(app, caller.organizationId)).length, before.events + 1);
      assert.equal((await deliveriesOf(app, caller.organizationId)).length, before.deliveries + 1);
    });

    it('background jobs fan out in their transaction too (and roll back with it)', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, { events: ['contractor.*'] });
      const emit = (fail: boolean) =>
        withUnit(
          app.services,
          {
            organizationId: caller.organizationId,
            actor: { type: 'job', job: 'test-job' },
            operation: 'test-job',
          },
          async (unit) => {
            await unit.emit({
              type: 'contractor.updated',
              subject: { type: 'contractor', id: endpoint.id },
              data: { displayName: 'Renamed by a job' },
            });
            if (fail) throw new Error('job failed');
          },
        );
      await assert.rejects(emit(true), /job failed/);
      assert.equal((await eventsOf(app, caller.organizationId, 'contractor.updated')).length, 0);
      await emit(false);
      const [event] = await eventsOf(app, caller.organizationId, 'contractor.updated');
      assert.ok(event);
      const deliveries = await deliveriesOf(app, caller.organizationId);
      assert.equal(deliveries.filter((d) => d.event_id === event.id).length, 1);
    });

    it('follows pattern changes and re-enabling for later events only', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, { events: ['invoice.*'] });
      await run(caller, false);
      assert.equal((await deliveriesOf(app, caller.organizationId)).length, 0);
      const update = await call(
        app.baseUrl,
        'webhooks.endpoints.update',
        { id: endpoint.id, expectedRevision: 1, events: ['contractor.created'] },
        { token: caller.token },
      );
      assert.equal(update.status, 200);
      await run(caller, false);
      const deliveries = await deliveriesOf(app, caller.organizationId);
      assert.equal(deliveries.length, 1);
      const event = (await eventsOf(app, caller.organizationId)).find(
        (e) => e.id === deliveries[0]?.event_id,
      );
      assert.equal(event?.type, 'contractor.created');
      assert.deepEqual(asJson(event?.data), {
        displayName: 'A',
        email: 'a@example.com',
        country: null,
        jobRoleId: null,
      });
    });
  });
}
