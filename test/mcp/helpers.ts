import path from 'node:path';
import type { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { TestApp } from '../support/app.ts';

export type Json = Record<string, unknown>;
export type Transport = 'http' | 'stdio';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(ROOT, 'bin/accounting');

export interface Connection {
  client: Client;
  /** What the server process wrote on stderr (stdio only; empty over HTTP). */
  stderr(): string;
  close(): Promise<void>;
}

/** The official MCP client over Streamable HTTP, with the key as a Bearer credential. */
export async function connectHttp(app: TestApp, token: string): Promise<Connection> {
  const client = new Client({ name: 'accounting-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, stderr: () => '', close: () => client.close() };
}

/** The official MCP client over stdio: spawns `./bin/accounting mcp` on the app's database. */
export async function connectStdio(
  app: TestApp,
  token: string,
  env: Record<string, string> = {},
): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['mcp'],
    cwd: ROOT,
    stderr: 'pipe',
    env: {
      ...getDefaultEnvironment(),
      ...app.database.env,
      LOG_LEVEL: 'info',
      ACCOUNTING_API_KEY: token,
      ...env,
    },
  });
  let stderr = '';
  (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'accounting-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export function connect(transport: Transport, app: TestApp, token: string): Promise<Connection> {
  return transport === 'http' ? connectHttp(app, token) : connectStdio(app, token);
}

export interface ToolOutcome {
  isError: boolean;
  data: Json;
  /** `structuredContent.error` of a failed call. */
  error: Json & { code?: string };
  text: string;
}

export async function callTool(client: Client, name: string, args: Json = {}): Promise<ToolOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const data = (result.structuredContent ?? {}) as Json;
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  return {
    isError: result.isError === true,
    data,
    error: (data.error ?? {}) as ToolOutcome['error'],
    text: content?.find((block) => block.type === 'text')?.text ?? '',
  };
}

let keys = 0;
export function toolKey(label: string): string {
  keys += 1;
  return `mcp-${label}-${process.pid}-${Date.now()}-${keys}`;
}
