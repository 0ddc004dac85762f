import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { readerStatus } from '../receipts/extraction/readers.ts';
import type { Services } from '../services.ts';

/**
 * Operator endpoints, outside the versioned API and without credentials:
 * liveness, readiness (the database answers; which receipt readers are missing) and Prometheus metrics.
 */
export function registerOpsRoutes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(services.db.kysely);
      // A missing receipt reader does not take the node out of rotation (everything else works,
      // and such receipts wait to be read), but it is shown here for the operator.
      const readers = await readerStatus();
      return {
        status: 'ready',
        database: services.db.dialect,
        receipt_readers: {
          pdf_text: readers.pdfText,
          ocr: readers.ocr,
          ocr_languages: readers.ocrLanguages,
          missing: readers.missing,
        },
      };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: services.db.dialect });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    reply.type(services.metrics.registry.contentType);
    return services.metrics.registry.metrics();
  });
}
