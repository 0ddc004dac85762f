import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { toolCatalog } from '../../src/mcp/server.ts';
import { inputSchemaOf, visibleTo } from '../../src/mcp/tools.ts';
import { findOperation, OPERATIONS } from '../../src/operations/catalog.ts';
import type { Principal } from '../../src/operations/context.ts';
import { isRead, mcpToolName } from '../../src/operations/define.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { addCaller } from '../support/factories.ts';
import { type Connection, callTool, connect, type Json, type Transport, toolKey } from './helpers.ts';
import { definePauseAndRotateTests } from './suite-contract-tools.ts';

/** The tool names a caller should see: derived from the catalog, never listed by hand. */
function expectedTools(caller: Caller, scopes: readonly string[]): string[] {
  const principal = { role: caller.role, scopes: new Set(scopes) } as unknown as Principal;
  return [...toolCatalog().values()].filter((entry) => visibleTo(entry, principal)).map((e) => e.name);
}

async function auditCount(app: TestApp, recordId: string, operation: string): Promise<number> {
  const rows = await auditRows(app, { recordId, operation }, { columns: ['id'] });
  return rows.length;
}

/** The MCP behaviour every transport must show, on every database. */
export function defineMcpSuite(transport: Transport): void {
  for (const dialect of DIALECTS) {
    describe(`MCP over ${transport} (${dialect})`, () => {
      let app: TestApp;
      let admin: Caller;
      let reader: Caller;
      let adminConnection: Connection;
      let readerConnection: Connection;
      before(async () => {
        app = await startTestApp(dialect);
        admin = await createCaller(app);
        reader = await addCaller(app, admin.organizationId, { scopes: ['accounting:read'] });
        [adminConnection, readerConnection] = await Promise.all([
          connect(transport, app, admin.token),
          connect(transport, app, reader.token),
        ]);
      });
      after(async () => {
        await Promise.all([adminConnection?.close(), readerConnection?.close()]);
        await app.close();
      });

      it('lists one tool per operation the key may call, with the contract names', async () => {
        const { tools } = await adminConnection.client.listTools();
        const names = tools.map((tool) => tool.name);
        assert.deepEqual(names.sort(), expectedTools(admin, ACCOUNTING_SCOPES).sort());
        assert.ok(names.includes('accounting_contractors_create'));
        if (findOperation('invoices.schedules.pause'))
          assert.ok(names.includes('accounting_invoices_schedules_pause'));
        if (findOperation('webhooks.endpoints.rotateSecret'))
          assert.ok(names.includes('accounting_webhooks_endpoints_rotate_secret'));

        const create = tools.find((tool) => tool.name === 'accounting_contractors_create');
        const operation = findOperation('contractors.create');
        assert.ok(create && operation);
        assert.deepEqual(
          create.inputSchema.properties,
          JSON.parse(JSON.stringify(inputSchemaOf(operation).properties)),
        );
        // `additionalProperties: false` is said once in the server instructions (decision 271);
        // an unknown argument is still refused by the operation's own schema.
        assert.equal((create.inputSchema as Json).additionalProperties, undefined);
        assert.ok(create.inputSchema.required?.includes('idempotencyKey'));
        // Result schemas are left out of tools/list to keep it compact (decision 148).
        assert.equal(create.outputSchema, undefined);
        // readOnlyHint false is the MCP default and left out (decision 271).
        assert.notEqual(create.annotations?.readOnlyHint, true);
        assert.equal(create.annotations?.idempotentHint, true);
        const list = tools.find((tool) => tool.name === 'accounting_contractors_list');
        assert.equal(list?.annotations?.readOnlyHint, true);
      });

      it('shows a read-only key only the read tools', async () => {
        const { tools } = await readerConnection.client.listTools();
        const names = tools.map((tool) => tool.name);
        assert.deepEqual(names.sort(), expectedTools(reader, ['accounting:read']).sort());
        assert.ok(names.length > 0 && !names.includes('accounting_contractors_create'));
        for (const name of names) {
          const operation = OPERATIONS.find((op) => mcpToolName(op) === name);
          assert.ok(operation && isRead(operation), `${name} is a read`);
        }
      });

      it('never lists or runs a dashboard-only operation', async () => {
        const dashboardOnly = OPERATIONS.filter((operation) => operation.access.roles === 'dashboard');
        assert.ok(dashboardOnly.some((op) => op.name === 'matching.receiptConsolidation.confirm'));
        const { tools } = await adminConnection.client.listTools();
        for (const operation of dashboardOnly) {
          const derived = `accounting_${operation.name
            .split('.')
            .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase())
            .join('_')}`;
          assert.ok(!tools.some((tool) => tool.name === derived), `${derived} is not listed`);
          await assert.rejects(
            adminConnection.client.callTool({ name: derived, arguments: { ...(operation.example as Json) } }),
            /Unknown tool/,
          );
        }
      });

      it('creates through the same pipeline: replay with the same key takes effect once', async () => {
        const key = toolKey('create');
        const email = `${key}@example.com`;
        const args = { displayName: 'Ada', legalName: 'Ada Lovelace', email, idempotencyKey: key };
        const first = await callTool(adminConnection.client, 'accounting_contractors_create', args);
        assert.equal(first.isError, false, first.text);
        assert.equal(first.data.email, email);
        assert.equal(first.data.revision, 1);
        const replay = await callTool(adminConnection.client, 'accounting_contractors_create', args);
        assert.deepEqual(replay.data, first.data);
        const rows = await app.services.db.kysely
          .selectFrom('contractors')
          .select('id')
          .where('email', '=', email)
          .execute();
        assert.equal(rows.length, 1);
        assert.equal(await auditCount(app, String(first.data.id), 'contractors.create'), 1);

        const reused = await callTool(adminConnection.client, 'accounting_contractors_create', {
          ...args,
          displayName: 'Someone else',
        });
        assert.equal(reused.isError, true);
        assert.equal(reused.error.code, 'idempotency_key_reused');
      });

      it('refuses unknown arguments, bad input and a missing key with the HTTP error codes', async () => {
        const base = { displayName: 'Bo', legalName: 'Bo B', email: `${toolKey('bad')}@example.com` };
        const unknown = await callTool(adminConnection.client, 'accounting_contractors_create', {
          ...base,
          idempotencyKey: toolKey('u'),
          nickname: 'x',
        });
        assert.equal(unknown.isError, true);
        assert.equal(unknown.error.code, 'unknown_field');
        assert.equal(unknown.error.field, 'nickname');
        assert.match(String(unknown.error.request_id), /^req_[0-9a-f]{32}$/);
        const invalid = await callTool(adminConnection.client, 'accounting_contractors_create', {
          ...base,
          email: 'not-an-email',
          idempotencyKey: toolKey('i'),
        });
        assert.equal(invalid.error.code, 'invalid_input');
        assert.equal(invalid.error.field, 'email');
        const keyless = await callTool(adminConnection.client, 'accounting_contractors_create', base);
        assert.equal(keyless.error.code, 'idempotency_key_required');
      });

      it('refuses a tool the key lacks the scope for, and changes nothing', async () => {
        const email = `${toolKey('scope')}@example.com`;
        const refused = await callTool(readerConnection.client, 'accounting_contractors_create', {
          displayName: 'Cy',
          legalName: 'Cy C',
          email,
          idempotencyKey: toolKey('s'),
        });
        assert.equal(refused.isError, true);
        assert.equal(refused.error.code, 'insufficient_scope');
        const rows = await app.services.db.kysely
          .selectFrom('contractors')
          .select('id')
          .where('email', '=', email)
          .execute();
        assert.equal(rows.length, 0);
      });

      it('answers a stale expectedRevision with revision_conflict (contractors.update)', async (t) => {
        if (!findOperation('contractors.update')) return t.skip('contractors.update is not in the catalog');
        const created = await callTool(adminConnection.client, 'accounting_contractors_create', {
          displayName: 'Di',
          legalName: 'Di D',
          email: `${toolKey('rev')}@example.com`,
          idempotencyKey: toolKey('c'),
        });
        const id = created.data.id;
        const updated = await callTool(adminConnection.client, 'accounting_contractors_update', {
          id,
          expectedRevision: 1,
          displayName: 'Diana',
          idempotencyKey: toolKey('u1'),
        });
        assert.equal(updated.isError, false, updated.text);
        assert.equal(updated.data.revision, 2);
        const stale = await callTool(adminConnection.client, 'accounting_contractors_update', {
          id,
          expectedRevision: 1,
          displayName: 'Dee',
          idempotencyKey: toolKey('u2'),
        });
        assert.equal(stale.isError, true);
        assert.equal(stale.error.code, 'revision_conflict');
        assert.equal(stale.error.current_revision, 2);
        const read = await callTool(readerConnection.client, 'accounting_contractors_get', { id });
        assert.equal(read.data.display_name, 'Diana');
        assert.equal(read.data.revision, 2);
      });

      definePauseAndRotateTests(() => ({ app, admin, adminConnection, readerConnection, transport }));
    });
  }
}
