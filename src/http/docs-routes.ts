import fastifyApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH } from '../openapi/document.ts';

/**
 * Interactive API reference at /docs (Scalar). The page and its script are served by this
 * process from the installed package (`/docs/js/scalar.js`), never from a CDN, and every feature
 * that would call an outside service (fonts, proxy, telemetry, AI agent, MCP generator) is off.
 */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyApiReference, {
    routePrefix: '/docs',
    logLevel: 'warn',
    configuration: {
      url: OPENAPI_PATH,
      pageTitle: 'Accounting Service API',
      withDefaultFonts: false,
      telemetry: false,
      proxyUrl: '',
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
      defaultOpenAllTags: false,
      authentication: { preferredSecurityScheme: 'bearerAuth' },
    },
  });
}
