import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../services.ts';

/**
 * Operator endpoints, outside the versioned API and without credentials:
 * liveness, readiness (the database answers) and Prometheus metrics.
 */
export function registerOpsRoutes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(services.db.kysely);
      return { status: 'ready', database: services.db.dialect };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: services.db.dialect });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    reply.type(services.metrics.registry.contentType);
    return services.metrics.registry.metrics();
  });
}
