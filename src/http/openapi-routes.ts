import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH, openApiDocument } from '../openapi/document.ts';

/**
 * The OpenAPI 3.1 document, unauthenticated: it describes the API and holds no data. Built and
 * serialized on the first request, not at start (about a quarter of a second and several MB of
 * short-lived heap that a process nobody asks for the document never needs; issue 16).
 */
export function openApiRoutes(app: FastifyInstance): void {
  let body: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    body ??= JSON.stringify(openApiDocument());
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(body);
  });
}
