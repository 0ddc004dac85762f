import type { FastifyInstance } from 'fastify';
import { buildHttpApp, type HttpPlugin } from './http/app.ts';
import { docsRoutes } from './http/docs-routes.ts';
import { mcpRoutes } from './http/mcp-routes.ts';
import { openApiRoutes } from './http/openapi-routes.ts';
import { portalRoutes } from './http/portal-routes.ts';
import type { Services } from './services.ts';
import { dashboardRoutes } from './web/dashboard/routes.ts';
import { contractorPortalRoutes } from './web/portal/routes.ts';

/** Route groups beyond the operation API (OpenAPI document, docs page, MCP endpoint, portal, dashboard). */
export const HTTP_PLUGINS: readonly HttpPlugin[] = [
  portalRoutes,
  openApiRoutes,
  docsRoutes,
  mcpRoutes,
  dashboardRoutes,
  contractorPortalRoutes,
];

export function buildServer(services: Services): Promise<FastifyInstance> {
  return buildHttpApp(services, HTTP_PLUGINS);
}
