import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonOrText } from './http.ts';
import { openApiProblems } from './openapi-validator.ts';

/**
 * A loopback HTTP proxy in front of a test server that checks every API answer against the
 * OpenAPI document, for clients that run in another process (the README example) and so cannot
 * use the in-process checks of test/support/http.ts.
 */
export interface ValidatingProxy {
  url: string;
  /** How many API answers passed through. */
  checked(): number;
  problems: string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startValidatingProxy(target: string): Promise<ValidatingProxy> {
  const problems: string[] = [];
  let checked = 0;
  const server = createServer(async (request, response) => {
    try {
      const body = await bodyOf(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, String(value));
      }
      const method = request.method ?? 'GET';
      const upstream = await fetch(`${target}${request.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const bytes = Buffer.from(await upstream.arrayBuffer());
      const path = new URL(request.url ?? '/', target).pathname;
      if (path.startsWith('/api/v1/accounting/')) {
        const parsed = jsonOrText(bytes.toString('utf8'));
        checked += 1;
        problems.push(
          ...openApiProblems({
            method,
            path,
            status: upstream.status,
            headers: upstream.headers,
            body: parsed,
          }),
        );
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
      });
      response.writeHead(upstream.status, out).end(bytes);
    } catch (error) {
      problems.push(`proxy: ${String(error)}`);
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    checked: () => checked,
    problems,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
