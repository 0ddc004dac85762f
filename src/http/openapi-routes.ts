import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH, openApiDocument } from '../openapi/document.ts';

/** The OpenAPI 3.1 document, unauthenticated: it describes the API and holds no data. */
export function openApiRoutes(app: FastifyInstance): void {
  const body = JSON.stringify(openApiDocument());
  app.get(OPENAPI_PATH, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(body),
  );
}
