import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import {
  MINOR_PATTERN,
  POSITIVE_MINOR_PATTERN,
  SIGNED_MINOR_PATTERN,
  SINGLE_LINE_PATTERN,
  UUID_PATTERN,
} from '../../src/contract/formats.ts';
import { inputSchemaOf } from '../../src/mcp/tools.ts';
import { plainSchema, withoutIds } from '../../src/openapi/schemas.ts';
import { findOperation, OPERATIONS } from '../../src/operations/catalog.ts';
import { type AnyOperation, mcpToolName } from '../../src/operations/define.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { type Connection, connectHttp } from './helpers.ts';

type Node = { [keyword: string]: unknown };

/**
 * What an agent needs from a schema, as comparable lines: the properties of every object, its
 * required list, every enum (a union of constants counts as one), format, pattern, bound and
 * default. The compact spellings (format uuid for the ID pattern, `type: [T, 'null']`, an enum
 * holding null) read the same as the originals. Left out on purpose (decision 271): JSON's own
 * integer limit as `maximum`, and the idempotency key's usual 8-200 characters, which the server
 * instructions state.
 */
function facts(node: unknown, path: string, out: Set<string>): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  const schema = node as Node;
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as Node[];
    const constants = options.filter((option) => 'const' in option).map((option) => String(option.const));
    if (constants.length > 0) out.add(`${path} enum ${constants.sort().join('|')}`);
    for (const option of options)
      if (!('const' in option) && option.type !== 'null') facts(option, path, out);
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null).map(String);
    out.add(`${path} enum ${values.sort().join('|')}`);
  } else if ('const' in schema && !Array.isArray(schema.anyOf)) {
    out.add(`${path} enum ${String(schema.const)}`);
  }
  // The compact spellings of the long contract patterns (src/mcp/compact-schema.ts) count as the same.
  const named: Record<string, string> = {
    [UUID_PATTERN]: 'uuid',
    [SIGNED_MINOR_PATTERN]: 'signed-minor-units',
    [MINOR_PATTERN]: 'minor-units',
    [POSITIVE_MINOR_PATTERN]: 'positive-minor-units',
    [SINGLE_LINE_PATTERN]: 'single-line',
  };
  const format = (schema.pattern !== undefined ? named[String(schema.pattern)] : undefined) ?? schema.format;
  if (format !== undefined) out.add(`${path} format ${String(format)}`);
  if (schema.pattern !== undefined && named[String(schema.pattern)] === undefined)
    out.add(`${path} pattern ${String(schema.pattern)}`);
  for (const bound of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'default']) {
    const value = schema[bound];
    if (value === undefined || (bound === 'maximum' && value === Number.MAX_SAFE_INTEGER)) continue;
    if (
      path === '.idempotencyKey' &&
      ((bound === 'minLength' && value === 8) || (bound === 'maxLength' && value === 200))
    )
      continue;
    out.add(`${path} ${bound} ${JSON.stringify(value)}`);
  }
  if (typeof schema.properties === 'object' && schema.properties !== null) {
    const properties = schema.properties as Record<string, unknown>;
    out.add(`${path} properties ${Object.keys(properties).sort().join(',')}`);
    for (const [name, child] of Object.entries(properties)) facts(child, `${path}.${name}`, out);
  }
  if (Array.isArray(schema.required)) {
    // A mutation tool lists idempotencyKey as required (MCP has no header to carry it).
    const required = (schema.required as string[]).filter((name) => name !== 'idempotencyKey');
    if (required.length > 0) out.add(`${path} required ${required.sort().join(',')}`);
  }
  if (schema.items !== undefined) facts(schema.items, `${path}[]`, out);
  return out;
}

function operationOf(toolName: string): AnyOperation {
  const operation = OPERATIONS.find((op) => mcpToolName(op) === toolName);
  assert.ok(operation, toolName);
  return operation;
}

/** An agent loads tools/list into its context: it stays compact, and input schemas keep every rule. */
describe('MCP tools/list size', () => {
  let app: TestApp;
  let everything: Caller;
  let connection: Connection;
  before(async () => {
    app = await startTestApp('sqlite');
    // Every scope, so every tool is listed (the mail tools need the mail scopes).
    everything = await createCaller(app, { scopes: ALL_SCOPES });
    connection = await connectHttp(app, everything.token);
  });
  after(async () => {
    await connection.close();
    await app.close();
  });

  it('keeps all of tools/list within 80 KB', async () => {
    const { tools } = await connection.client.listTools();
    const expected = OPERATIONS.filter(
      (operation) => mcpToolName(operation) !== undefined && operation.access.roles !== 'dashboard',
    ).filter((operation) => operation.access.roles.includes('admin'));
    assert.ok(tools.length >= 100, `all the tools (${tools.length})`);
    assert.equal(tools.length, expected.length);
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    assert.ok(bytes <= 80 * 1024, `tools/list is ${bytes} bytes for ${tools.length} tools`);
  });

  it('keeps every required field, enum, format, pattern, bound and default of every input', async () => {
    const { tools } = await connection.client.listTools();
    for (const tool of tools) {
      assert.ok(tool.description && tool.description.length > 10, tool.name);
      const operation = operationOf(tool.name);
      const original = facts(withoutIds(plainSchema(operation.input)), '', new Set());
      const listed = facts(tool.inputSchema, '', new Set());
      assert.deepEqual([...listed].sort(), [...original].sort(), tool.name);
      if (operation.mutation) assert.ok(tool.inputSchema.required?.includes('idempotencyKey'), tool.name);
    }
  });

  it('lists the input schema the tools module derives, written compactly', async () => {
    const { tools } = await connection.client.listTools();
    const create = tools.find((tool) => tool.name === 'accounting_invoices_create');
    const operation = findOperation('invoices.create');
    assert.ok(operation);
    assert.deepEqual(create?.inputSchema, JSON.parse(JSON.stringify(inputSchemaOf(operation))));
    const partyId = create?.inputSchema.properties?.partyId as { format?: string } | undefined;
    assert.equal(partyId?.format, 'uuid');
    // Prose that says more than the name stays (first sentence), standard fields lose theirs.
    const properties = create?.inputSchema.properties as Record<string, { description?: string }>;
    assert.equal(properties.idempotencyKey?.description, undefined);
    assert.ok((properties.dueDate?.description ?? '').length > 10);
  });
});
