import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findOperation, OPERATIONS } from '../../src/operations/catalog.ts';
import { mcpToolName } from '../../src/operations/define.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { type Connection, connectHttp } from './helpers.ts';

/** An agent loads tools/list into its context: it stays compact, and input schemas stay whole. */
describe('MCP tools/list size', () => {
  let app: TestApp;
  let admin: Caller;
  let connection: Connection;
  before(async () => {
    app = await startTestApp('sqlite');
    admin = await createCaller(app);
    connection = await connectHttp(app, admin.token);
  });
  after(async () => {
    await connection.close();
    await app.close();
  });

  it('lists every tool an administrator may call in at most 80 KB, with full input schemas', async () => {
    const { tools } = await connection.client.listTools();
    const expected = OPERATIONS.filter((operation) => {
      const { roles } = operation.access;
      return mcpToolName(operation) !== undefined && roles !== 'dashboard' && roles.includes('admin');
    });
    assert.ok(tools.length >= 50, `all the tools (${tools.length})`);
    assert.equal(tools.length, expected.length);
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    assert.ok(bytes <= 80 * 1024, `tools/list is ${bytes} bytes`);
    for (const tool of tools) {
      assert.ok(tool.description && tool.description.length > 10, tool.name);
      const operation = OPERATIONS.find((op) => mcpToolName(op) === tool.name);
      assert.ok(operation, tool.name);
      // Every documented input field keeps its description and constraints.
      assert.deepEqual(
        Object.keys(tool.inputSchema.properties ?? {}).sort(),
        Object.keys((operation.input as { properties?: object }).properties ?? {}).sort(),
        tool.name,
      );
    }
    const create = tools.find((tool) => tool.name === 'accounting_invoices_create');
    const input = findOperation('invoices.create')?.input as { properties: Record<string, unknown> };
    assert.deepEqual(create?.inputSchema.properties, JSON.parse(JSON.stringify(input.properties)));
  });
});
