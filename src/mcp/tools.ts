import type { Tool } from '@modelcontextprotocol/server';
import { type JsonSchema, plainSchema, withoutIds } from '../openapi/schemas.ts';
import type { Principal } from '../operations/context.ts';
import { type AnyOperation, isRead, mcpToolName } from '../operations/define.ts';
import { compactForAgents } from './compact-schema.ts';

/** One MCP tool and the operation behind it. */
export interface ToolEntry {
  name: string;
  operation: AnyOperation;
  definition: Tool;
  /** The advertised output schema (object root), reused when projecting results. */
  outputSchema: JsonSchema;
  /** True when the operation's output is not an object and is wrapped as `{ result }`. */
  wrapsOutput: boolean;
}

function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === 'object';
}

/**
 * The tool's input schema is the operation's own (so unknown arguments are refused exactly as
 * over HTTP). A mutation tool lists `idempotencyKey` as required: MCP has no header to carry it,
 * and a key is what makes an agent's retry safe.
 */
export function inputSchemaOf(operation: AnyOperation): JsonSchema {
  const schema = compactForAgents(withoutIds(plainSchema(operation.input)));
  if (operation.mutation) {
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (!required.includes('idempotencyKey')) schema.required = [...required, 'idempotencyKey'];
  }
  return schema;
}

function toolEntry(operation: AnyOperation, name: string): ToolEntry {
  const output = withoutIds(plainSchema(operation.output));
  const wrapsOutput = !isObjectSchema(output);
  const outputSchema: JsonSchema = wrapsOutput
    ? { type: 'object', properties: { result: output }, required: ['result'], additionalProperties: false }
    : output;
  const read = isRead(operation);
  // Compact for agents' context windows (all of tools/list stays within 80 KB, a test keeps it;
  // decision 271): the summary (no title: it would repeat it), the input schema with every
  // constraint and only the prose the names do not say, and annotations that differ from the
  // MCP defaults (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint
  // true). Access, idempotency, revision and pagination rules are said once in the server
  // instructions; result schemas are in the OpenAPI document. Results still carry
  // `structuredContent`.
  const annotations: Tool['annotations'] = read
    ? { readOnlyHint: true, openWorldHint: false }
    : {
        ...(operation.mutation?.destructive === true ? {} : { destructiveHint: false }),
        // Every mutation tool takes a required idempotencyKey: a repeat with the same arguments
        // returns the stored result and takes effect once.
        idempotentHint: true,
        openWorldHint: false,
      };
  const definition = {
    name,
    description: `${operation.summary}.`,
    inputSchema: inputSchemaOf(operation),
    annotations,
  } as Tool;
  return { name, operation, definition, outputSchema, wrapsOutput };
}

/** Every tool of the catalog (dashboard-only operations and `mcpTool: false` never appear). */
export function buildToolCatalog(operations: readonly AnyOperation[]): Map<string, ToolEntry> {
  const tools = new Map<string, ToolEntry>();
  for (const operation of operations) {
    const name = mcpToolName(operation);
    if (name === undefined) continue;
    if (tools.has(name)) throw new Error(`MCP: two operations map to the tool name ${name}`);
    tools.set(name, toolEntry(operation, name));
  }
  return tools;
}

/** A tool is listed only when the caller's scopes (and role) could ever call it. */
export function visibleTo(entry: ToolEntry, principal: Principal): boolean {
  const { roles, scopes } = entry.operation.access;
  if (roles === 'dashboard') return false;
  return scopes.every((scope) => principal.scopes.has(scope)) && roles.includes(principal.role);
}
