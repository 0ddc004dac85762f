import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPENAPI_PATH } from '../openapi/document.ts';

/** Scalar's options: nothing that would call an outside service (fonts, proxy, telemetry, AI, MCP). */
const REFERENCE_OPTIONS = {
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
} as const;

/** Headers of the inner answer that the outer reply sets itself. */
const HOP_BY_HOP = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive', 'date']);

/**
 * Interactive API reference at /docs (Scalar). The page and its script are served by this
 * process from the installed package (`/docs/js/scalar.js`), never from a CDN. Scalar (about
 * 20 MB of heap) loads on the first request to /docs, into a small Fastify instance of its own
 * that these routes pass the request to, so a process nobody reads the docs of never loads it.
 */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  let reference: Promise<FastifyInstance> | undefined;
  const load = () => {
    reference ??= (async () => {
      const [{ default: fastify }, { default: fastifyApiReference }] = await Promise.all([
        import('fastify'),
        import('@scalar/fastify-api-reference'),
      ]);
      const inner = fastify({ logger: false });
      await inner.register(fastifyApiReference, REFERENCE_OPTIONS);
      await inner.ready();
      return inner;
    })();
    return reference;
  };
  app.addHook('onClose', async () => {
    if (reference) await (await reference).close();
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const inner = await load();
    const answer = await inner.inject({
      method: 'GET',
      url: request.url,
      headers: {
        ...(request.headers.accept ? { accept: request.headers.accept } : {}),
        ...(request.headers['if-none-match'] ? { 'if-none-match': request.headers['if-none-match'] } : {}),
      },
    });
    reply.code(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    return reply.send(answer.rawPayload);
  };
  app.get('/docs', serve);
  app.get('/docs/*', serve);
}
