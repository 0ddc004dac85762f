import type { Tool } from '@modelcontextprotocol/server';
import { UUID_PATTERN } from '../contract/formats.ts';
import { type JsonSchema, mapSubschemas, plainSchema, withoutIds } from '../openapi/schemas.ts';
import type { Principal } from '../operations/context.ts';
import { type AnyOperation, isRead, mcpToolName } from '../operations/define.ts';

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

/**
 * The same constraints in fewer bytes, so all of tools/list stays under 80 KB (88 tools): the
 * 176-character ID pattern becomes `format: uuid` (the call is still validated against the exact
 * contract rule, UUID versions 1-8 plus nil and max, which `format: uuid` nearly equals), and a
 * union of string constants becomes the equivalent `enum`.
 */
export function compactForAgents(schema: JsonSchema): JsonSchema {
  const out = mapSubschemas(schema, compactForAgents);
  if (out.pattern === UUID_PATTERN) {
    delete out.pattern;
    out.format = 'uuid';
  }
  const options = out.anyOf;
  if (
    Array.isArray(options) &&
    options.length > 0 &&
    options.every(
      (option) =>
        typeof option === 'object' &&
        option !== null &&
        Object.keys(option).length === 2 &&
        (option as JsonSchema).type === 'string' &&
        typeof (option as JsonSchema).const === 'string',
    )
  ) {
    delete out.anyOf;
    out.type = 'string';
    out.enum = options.map((option) => (option as JsonSchema).const);
  }
  return out;
}

function toolEntry(operation: AnyOperation, name: string): ToolEntry {
  const output = withoutIds(plainSchema(operation.output));
  const wrapsOutput = !isObjectSchema(output);
  const outputSchema: JsonSchema = wrapsOutput
    ? { type: 'object', properties: { result: output }, required: ['result'], additionalProperties: false }
    : output;
  const read = isRead(operation);
  // Compact for agents' context windows (all of tools/list stays under 80 KB, a test keeps it):
  // the operation's own text and the full input schema; access, idempotency and revision rules
  // are said once in the server instructions, and result schemas (the bulk: 190 KB for 52 tools)
  // are published in the OpenAPI document. Results still carry `structuredContent`.
  const definition = {
    name,
    title: operation.summary,
    description: operation.description
      ? `${operation.summary}. ${operation.description}`
      : `${operation.summary}.`,
    inputSchema: inputSchemaOf(operation),
    annotations: {
      readOnlyHint: read,
      // Hints about side effects only mean something for tools that change things.
      destructiveHint: read ? false : operation.mutation?.destructive === true,
      // Reads change nothing; every mutation tool takes a required idempotencyKey, so a repeat
      // with the same arguments returns the stored result and takes effect once.
      idempotentHint: true,
      openWorldHint: false,
    },
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
