import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorUser } from '../../src/cli/operator-user.ts';
import { runWebhookEnable } from '../../src/cli/webhook-commands.ts';
import { asJson } from '../../src/db/values.ts';
import { mcpToolName } from '../../src/operations/define.ts';
import { enableWebhookEndpoint } from '../../src/operations/webhooks/endpoints-enable.ts';
import { rotateEndpointSecret } from '../../src/operations/webhooks/endpoints-rotate-secret.ts';
import { TEST_EVENT_MESSAGE } from '../../src/operations/webhooks/endpoints-test.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { call } from '../support/http.ts';
import { createEndpoint, deliveriesOf, eventsOf, markDisabled } from './endpoint-helpers.ts';

for (const dialect of DIALECTS) {
  describe(`webhook endpoints: test and enable (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());
    const op = (caller: Caller, name: string, input: Record<string, unknown>) =>
      call(app.baseUrl, `webhooks.endpoints.${name}`, input, { token: caller.token });

    it('test sends a webhook.test event to that endpoint only, whatever its patterns', async () => {
      const caller = await createCaller(app);
      const target = (await createEndpoint(app, caller, { events: ['invoice.paid'] })).endpoint;
      const other = (await createEndpoint(app, caller, { events: ['*'] })).endpoint;
      const before = await deliveriesOf(app, caller.organizationId);
      app.clock.advance(1000);
      const res = await op(caller, 'test', { id: target.id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const event = res.data.event as {
        id: string;
        type: string;
        subject: unknown;
        data: unknown;
        created: number;
      };
      assert.equal(event.type, 'webhook.test');
      assert.deepEqual(event.subject, { type: 'webhook_endpoint', id: target.id });
      assert.deepEqual(event.data, { message: TEST_EVENT_MESSAGE });
      assert.equal(event.created, Math.floor(app.clock.now().getTime() / 1000));
      const added = (await deliveriesOf(app, caller.organizationId)).filter(
        (d) => !before.some((b) => b.id === d.id),
      );
      assert.equal(added.length, 1);
      assert.equal(added[0]?.id, res.data.delivery_id);
      assert.equal(added[0]?.endpoint_id, target.id);
      assert.equal(added[0]?.event_id, event.id);
      assert.equal(added[0]?.status, 'pending');
      assert.notEqual(added[0]?.endpoint_id, other.id);
      // The endpoint record itself is unchanged.
      const get = await op(caller, 'get', { id: target.id });
      assert.equal(get.data.revision, 1);
    });

    it('test refuses a disabled endpoint', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller);
      await markDisabled(app, caller.organizationId, endpoint.id);
      const res = await op(caller, 'test', { id: endpoint.id });
      assertError(res, 409, 'invalid_state');
      assert.equal(res.error.state, 'disabled');
    });

    it('enable is dashboard-only: API keys are refused and MCP has no tool for it', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller);
      const revision = await markDisabled(app, caller.organizationId, endpoint.id);
      const res = await op(caller, 'enable', { id: endpoint.id, expectedRevision: revision });
      assertError(res, 403, 'dashboard_only');
      assert.equal(mcpToolName(enableWebhookEndpoint), undefined);
      assert.equal(mcpToolName(rotateEndpointSecret), 'accounting_webhooks_endpoints_rotate_secret');
      const get = await op(caller, 'get', { id: endpoint.id });
      assert.equal(get.data.status, 'disabled');
    });

    it('the operator command turns a disabled endpoint back on and fan-out resumes', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, { events: ['webhook.endpoint.updated'] });
      const revision = await markDisabled(app, caller.organizationId, endpoint.id);
      const options = { org: caller.organizationId, endpoint: endpoint.id };
      await assert.rejects(runWebhookEnable(app.services, { ...options, revision: '1' }), /revision/);
      const result = await runWebhookEnable(app.services, options);
      assert.deepEqual(result, { endpointId: endpoint.id, status: 'active', revision: revision + 1 });
      const get = await op(caller, 'get', { id: endpoint.id });
      assert.equal(get.data.active, true);
      assert.equal(get.data.status, 'active');
      assert.equal(get.data.failure_count, 0);
      assert.equal(get.data.disabled_reason, null);
      assert.equal(get.data.disabled_at, null);
      const [enabled] = await eventsOf(app, caller.organizationId, 'webhook.endpoint.enabled');
      assert.deepEqual(asJson(enabled?.data), { url: endpoint.url });
      // Audited like every CLI change: the OS user as operator, the API operation's name.
      const audit = await auditRows(app, { recordId: endpoint.id, actorId: `operator:${operatorUser()}` });
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.operation, 'webhooks.endpoints.enable');
      // An active endpoint cannot be enabled again; unknown ids and other organizations are refused.
      await assert.rejects(runWebhookEnable(app.services, options), /active endpoint cannot be enabled/);
      const stranger = await createCaller(app);
      await assert.rejects(
        runWebhookEnable(app.services, { ...options, org: stranger.organizationId }),
        /not found/,
      );
      await assert.rejects(runWebhookEnable(app.services, { ...options, endpoint: 'nope' }), /UUID/);
      // Deliveries are made again for later events.
      const update = await op(caller, 'update', {
        id: endpoint.id,
        expectedRevision: result.revision,
        description: 'back',
      });
      assert.equal(update.status, 200);
      const deliveries = await deliveriesOf(app, caller.organizationId);
      assert.equal(deliveries.filter((d) => d.endpoint_id === endpoint.id).length, 1);
    });

    it('a disabled endpoint can still be updated and rotated, and receives nothing', async () => {
      const caller = await createCaller(app);
      const { endpoint } = await createEndpoint(app, caller, { events: ['webhook.*'] });
      const before = (await deliveriesOf(app, caller.organizationId)).length;
      const revision = await markDisabled(app, caller.organizationId, endpoint.id);
      const update = await op(caller, 'update', {
        id: endpoint.id,
        expectedRevision: revision,
        description: 'x',
      });
      assert.equal(update.status, 200, JSON.stringify(update.body));
      assert.equal(update.data.status, 'disabled');
      const rotate = await op(caller, 'rotateSecret', {
        id: endpoint.id,
        expectedRevision: revision + 1,
        idempotencyKey: `rotate-disabled-${endpoint.id}`,
      });
      assert.equal(rotate.status, 200);
      assert.equal((await deliveriesOf(app, caller.organizationId)).length, before);
    });
  });
}
