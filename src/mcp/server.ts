import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { type AppError, errorBody } from '../contract/errors.ts';
import { SPEC_VERSION } from '../contract/version.ts';
import { newId } from '../lib/ids.ts';
import { OPERATIONS } from '../operations/catalog.ts';
import type { Principal } from '../operations/context.ts';
import { toAppError } from '../operations/error-mapping.ts';
import { invoke } from '../operations/execute.ts';
import type { Services } from '../services.ts';
import { buildToolCatalog, type ToolEntry, visibleTo } from './tools.ts';

/** Tools of this process's catalog, derived once. */
const TOOLS = buildToolCatalog(OPERATIONS);

export function toolCatalog(): ReadonlyMap<string, ToolEntry> {
  return TOOLS;
}

/** How the transport tells who is calling. */
export interface McpCaller {
  /**
   * The principal for one MCP request. HTTP authenticates every request before the server is
   * built; stdio checks its key again on each request, so a revoked key or a suspended member
   * stops working at once, as over HTTP.
   */
  principal(): Promise<Principal>;
  transport: 'stdio' | 'http';
}

const INSTRUCTIONS = `Tools of the accounting service, one per API operation, acting inside the organization of the credential.
Mutations require an idempotencyKey argument (8-200 characters unless the tool's schema gives a lower maxLength): reuse it when retrying and the change takes effect once.
Changes to an existing record require expectedRevision (the revision last read); a stale value fails with revision_conflict and current_revision.
Lists take limit (page size, 1-100, default 30) and either offset (records to skip) or cursor (nextCursor of the previous page).
Arguments a tool's inputSchema does not list are refused (unknown_field). Ids are UUIDs; dates are YYYY-MM-DD.
Money is a decimal string of minor units: format signed-minor-units is an integer from -9007199254740991 to 9007199254740991 (minor-units: 0 and up; positive-minor-units: 1 and up). Format single-line is text on one line: not blank, no control characters, line breaks or bidirectional overrides. Errors come back as tool results with isError and structuredContent.error.code.
A tool is listed only when this credential's scopes and role allow it. Destructive tools (destructiveHint) cannot be undone.
Results are in structuredContent; their full schemas are in the OpenAPI document at /api/v1/openapi.json (component <Operation>Result).`;

function requestId(): string {
  return `req_${newId().replace(/-/g, '')}`;
}

function errorResult(error: AppError, id: string): CallToolResult {
  const body = errorBody(error, id);
  // A tool result has no Retry-After header: the wait travels in the error itself.
  const retry = error.retryAfterSeconds;
  if (retry !== undefined) body.error.retry_after_seconds = retry;
  const wait = retry === undefined ? '' : ` Retry after ${retry} s.`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${wait} (request ${id})` }],
    structuredContent: body,
  };
}

/** Runs one tool call through the same pipeline as HTTP (access, rate limit, validation, idempotency). */
async function callTool(
  services: Services,
  caller: McpCaller,
  entry: ToolEntry,
  args: unknown,
): Promise<CallToolResult> {
  const id = requestId();
  const started = performance.now();
  let outcome = 'ok';
  try {
    const principal = await caller.principal();
    const { data } = await invoke(services, {
      operation: entry.operation,
      principal,
      input: args ?? {},
      idempotencyHeader: undefined,
      requestId: id,
      inputSource: 'tool',
    });
    const structured = (entry.wrapsOutput ? { result: data } : data) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    const { appError, unexpected } = toAppError(error);
    outcome = appError.code;
    if (unexpected)
      services.logger.error({ err: error, requestId: id, tool: entry.name }, 'tool call failed');
    return errorResult(appError, id);
  } finally {
    services.logger.info(
      {
        requestId: id,
        tool: entry.name,
        transport: caller.transport,
        outcome,
        durationMs: Math.round(performance.now() - started),
      },
      'mcp tool call',
    );
  }
}

/**
 * A low-level MCP server whose tools are the catalog's operations. Built per HTTP request (or
 * once per stdio connection); it owns no state, so any instance can serve any request.
 */
export function createMcpServer(services: Services, caller: McpCaller): Server {
  const server = new Server(
    { name: 'accounting-service', title: 'Accounting Service', version: SPEC_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler('tools/list', async () => {
    let principal: Principal;
    try {
      principal = await caller.principal();
    } catch (error) {
      const { appError } = toAppError(error);
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, appError.message, { code: appError.code });
    }
    const tools = [...TOOLS.values()].filter((entry) => visibleTo(entry, principal));
    return { tools: tools.map((entry) => entry.definition) };
  });

  server.setRequestHandler('tools/call', async (request) => {
    const entry = TOOLS.get(request.params.name);
    // Dashboard-only operations have no tool: their names are as unknown as any made-up name.
    if (!entry) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    const result = await callTool(services, caller, entry, request.params.arguments);
    return server.projectCallToolResult(result, entry.outputSchema);
  });
  return server;
}
