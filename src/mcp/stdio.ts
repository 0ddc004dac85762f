import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { authenticate } from '../auth/authenticate.ts';
import type { Services } from '../services.ts';
import { createMcpServer } from './server.ts';

export interface StdioOptions {
  apiKey: string;
  organizationId: string | undefined;
}

/**
 * MCP over this process's stdin/stdout. The key is checked once before serving (a bad key fails
 * fast with a message on stderr) and again on every request. Resolves when the client closes
 * stdin. stdout carries only protocol messages: every log line goes to stderr.
 */
export async function serveMcpStdio(services: Services, options: StdioOptions): Promise<void> {
  const credential = {
    authorization: `Bearer ${options.apiKey}`,
    organizationHeader: options.organizationId,
  };
  await authenticate(services, credential);
  const caller = { transport: 'stdio' as const, principal: () => authenticate(services, credential) };
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  const handle = serveStdio(() => createMcpServer(services, caller), {
    onerror: (error) => services.logger.warn({ err: error }, 'mcp stdio error'),
  });
  services.logger.info({ database: services.db.dialect }, 'mcp server ready on stdio');
  await closed;
  await handle.close();
}
