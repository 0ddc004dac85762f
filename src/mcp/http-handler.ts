import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Principal } from '../operations/context.ts';
import type { Services } from '../services.ts';
import { createMcpServer } from './server.ts';

export type McpHttpHandler = ReturnType<typeof createMcpHandler>;

/**
 * The Streamable HTTP handler of /mcp. src/http/mcp-routes.ts loads this module on the first MCP
 * request, so a process that never serves MCP never loads the SDK (issue 16: a lean idle process).
 */
export function createMcpHttpHandler(services: Services): McpHttpHandler {
  return createMcpHandler(
    (context) => {
      const principal = context.authInfo?.extra?.principal as Principal | undefined;
      if (!principal) throw new Error('MCP request reached the server without an authenticated principal');
      return createMcpServer(services, { transport: 'http', principal: async () => principal });
    },
    { onerror: (error) => services.logger.debug({ err: error }, 'mcp http exchange failed') },
  );
}
