import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findOperation } from '../../src/operations/catalog.ts';
import type { Caller, TestApp } from '../support/app.ts';
import { auditRows as readAudit } from '../support/audit.ts';
import { addCaller } from '../support/factories.ts';
import { type Connection, callTool, connect, type Json, type Transport, toolKey } from './helpers.ts';

/**
 * The two tools the contract names: `accounting_webhooks_endpoints_rotate_secret` and
 * `accounting_invoices_schedules_pause`, end to end through MCP (records made through MCP too,
 * from each operation's own example). Each test runs once its operation is in the catalog.
 */
export interface SuiteContext {
  app: TestApp;
  admin: Caller;
  adminConnection: Connection;
  readerConnection: Connection;
  transport: Transport;
}

async function auditRows(app: TestApp, recordId: string, operation: string): Promise<number> {
  const rows = await readAudit(app, { recordId, operation }, { columns: ['id'] });
  return rows.length;
}

function exampleOf(name: string): Json {
  const example = findOperation(name)?.example;
  assert.ok(example, `${name} has an example`);
  return structuredClone(example) as Json;
}

/** `data.endpoint` when the result wraps the record beside its secret, else the result itself. */
function recordOf(data: Json): Json {
  return (data.endpoint ?? data.schedule ?? data) as Json;
}

export function definePauseAndRotateTests(context: () => SuiteContext): void {
  it('accounting_webhooks_endpoints_rotate_secret: replay, stale revision, scope and role refusal', async (t) => {
    if (!findOperation('webhooks.endpoints.rotateSecret') || !findOperation('webhooks.endpoints.create')) {
      return t.skip('webhooks.endpoints.rotateSecret is not in the catalog yet');
    }
    const { app, admin, adminConnection, transport } = context();
    const created = await callTool(adminConnection.client, 'accounting_webhooks_endpoints_create', {
      ...exampleOf('webhooks.endpoints.create'),
      idempotencyKey: toolKey('endpoint'),
    });
    assert.equal(created.isError, false, created.text);
    const endpoint = recordOf(created.data);
    const args = { id: endpoint.id, expectedRevision: endpoint.revision, idempotencyKey: toolKey('rotate') };

    const rotated = await callTool(
      adminConnection.client,
      'accounting_webhooks_endpoints_rotate_secret',
      args,
    );
    assert.equal(rotated.isError, false, rotated.text);
    assert.equal(typeof rotated.data.secret, 'string');
    assert.notEqual(rotated.data.secret, created.data.secret);
    assert.equal(recordOf(rotated.data).revision, Number(endpoint.revision) + 1);
    const replay = await callTool(
      adminConnection.client,
      'accounting_webhooks_endpoints_rotate_secret',
      args,
    );
    assert.deepEqual(replay.data, rotated.data, 'a replay returns the stored result, same secret');
    assert.equal(await auditRows(app, String(endpoint.id), 'webhooks.endpoints.rotateSecret'), 1);

    const stale = await callTool(adminConnection.client, 'accounting_webhooks_endpoints_rotate_secret', {
      ...args,
      idempotencyKey: toolKey('rotate-stale'),
    });
    assert.equal(stale.isError, true);
    assert.equal(stale.error.code, 'revision_conflict');
    assert.equal(stale.error.current_revision, Number(endpoint.revision) + 1);

    // The operation needs accounting:admin: a read+write key neither sees nor runs the tool.
    const writer = await addCaller(app, admin.organizationId, {
      scopes: ['accounting:read', 'accounting:write'],
    });
    const writerConnection = await connect(transport, app, writer.token);
    try {
      const { tools } = await writerConnection.client.listTools();
      assert.ok(!tools.some((tool) => tool.name === 'accounting_webhooks_endpoints_rotate_secret'));
      const refused = await callTool(writerConnection.client, 'accounting_webhooks_endpoints_rotate_secret', {
        id: endpoint.id,
        expectedRevision: Number(endpoint.revision) + 1,
        idempotencyKey: toolKey('rotate-refused'),
      });
      assert.equal(refused.isError, true);
      assert.equal(refused.error.code, 'insufficient_scope');
    } finally {
      await writerConnection.close();
    }
    // Every scope, but the finance role: the contract gives rotateSecret to administrators only.
    const finance = await addCaller(app, admin.organizationId, {
      role: 'finance',
      scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
    });
    const financeConnection = await connect(transport, app, finance.token);
    try {
      const { tools } = await financeConnection.client.listTools();
      assert.ok(!tools.some((tool) => tool.name === 'accounting_webhooks_endpoints_rotate_secret'));
      const refused = await callTool(
        financeConnection.client,
        'accounting_webhooks_endpoints_rotate_secret',
        {
          id: endpoint.id,
          expectedRevision: Number(endpoint.revision) + 1,
          idempotencyKey: toolKey('rotate-finance'),
        },
      );
      assert.equal(refused.isError, true);
      assert.equal(refused.error.code, 'role_not_allowed');
    } finally {
      await financeConnection.close();
    }
    assert.equal(await auditRows(app, String(endpoint.id), 'webhooks.endpoints.rotateSecret'), 1);
  });

  it('accounting_invoices_schedules_pause: replay, stale revision, scope refusal', async (t) => {
    if (
      !findOperation('invoices.schedules.pause') ||
      !findOperation('invoices.schedules.create') ||
      !findOperation('parties.create')
    ) {
      return t.skip('invoices.schedules.pause is not in the catalog yet');
    }
    const { app, adminConnection, readerConnection } = context();
    const party = await callTool(adminConnection.client, 'accounting_parties_create', {
      ...exampleOf('parties.create'),
      idempotencyKey: toolKey('party'),
    });
    assert.equal(party.isError, false, party.text);
    const schedule = await callTool(adminConnection.client, 'accounting_invoices_schedules_create', {
      ...exampleOf('invoices.schedules.create'),
      partyId: recordOf(party.data).id,
      idempotencyKey: toolKey('schedule'),
    });
    assert.equal(schedule.isError, false, schedule.text);
    const record = recordOf(schedule.data);
    const args = { id: record.id, expectedRevision: record.revision, idempotencyKey: toolKey('pause') };

    const paused = await callTool(adminConnection.client, 'accounting_invoices_schedules_pause', args);
    assert.equal(paused.isError, false, paused.text);
    assert.equal(recordOf(paused.data).status, 'paused');
    assert.equal(recordOf(paused.data).revision, Number(record.revision) + 1);
    const replay = await callTool(adminConnection.client, 'accounting_invoices_schedules_pause', args);
    assert.deepEqual(replay.data, paused.data);
    assert.equal(await auditRows(app, String(record.id), 'invoices.schedules.pause'), 1);

    const stale = await callTool(adminConnection.client, 'accounting_invoices_schedules_pause', {
      ...args,
      idempotencyKey: toolKey('pause-stale'),
    });
    assert.equal(stale.isError, true);
    assert.equal(stale.error.code, 'revision_conflict');
    assert.equal(stale.error.current_revision, Number(record.revision) + 1);

    const refused = await callTool(readerConnection.client, 'accounting_invoices_schedules_pause', {
      id: record.id,
      expectedRevision: Number(record.revision) + 1,
      idempotencyKey: toolKey('pause-refused'),
    });
    assert.equal(refused.isError, true);
    assert.equal(refused.error.code, 'insufficient_scope');
    assert.equal(await auditRows(app, String(record.id), 'invoices.schedules.pause'), 1);
  });
}
