import type { FastifyInstance } from 'fastify';
import { buildHttpApp, type HttpPlugin } from './http/app.ts';
import type { Services } from './services.ts';

/** Route groups beyond the operation API (OpenAPI document, docs page, MCP endpoint, portal). */
export const HTTP_PLUGINS: readonly HttpPlugin[] = [];

export function buildServer(services: Services): Promise<FastifyInstance> {
  return buildHttpApp(services, HTTP_PLUGINS);
}
