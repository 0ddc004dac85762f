import type { FastifyInstance } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import { isId } from '../../contract/formats.ts';
import { toAppError } from '../../operations/error-mapping.ts';
import type { Services } from '../../services.ts';
import type { Row } from './components.ts';
import { callOperation, type Signed, signedIn } from './context.ts';
import type { LiveState } from './live-region.ts';
import { exportLive } from './pages/ledger.ts';
import { receiptLive } from './pages/receipt-states.ts';
import { inboxLive } from './pages/receipts-inbox.ts';
import { importLive } from './pages/transactions.ts';

type LiveSource = (services: Services, signed: Signed, id: string) => Promise<LiveState>;

/**
 * The work a page can follow, each read through its catalog operation as the member (so access,
 * the organization's scope and the role hold as for the page itself). Nothing is kept in this
 * process: every poll reads the database, so any process of the service can answer it.
 */
const SOURCES: Record<string, LiveSource> = {
  imports: async (services, signed, id) =>
    importLive((await callOperation(services, signed, 'transactions.imports.get', { id })) as Row),
  receipts: async (services, signed, id) =>
    receiptLive((await callOperation(services, signed, 'inbox.get', { id })) as Row),
  // A list page's receipts being read: their ids, comma separated (at most a page of 20).
  inbox: async (services, signed, ids) => {
    const list = ids.split(',');
    if (list.length > 20 || !list.every((id) => isId(id)))
      throw new AppError('invalid_input', 'Name at most 20 receipts by id, comma separated.', {
        field: 'id',
      });
    return inboxLive(
      (await Promise.all(list.map((id) => callOperation(services, signed, 'inbox.get', { id })))) as Row[],
    );
  },
  exports: async (services, signed, id) =>
    exportLive((await callOperation(services, signed, 'entries.exports.get', { id })) as Row),
};

/**
 * `GET /dashboard/live/<kind>/<id>`: the small JSON a live page polls (docs/decisions.md 485).
 * Without a session it answers 401 in JSON (never the sign-in redirect), so the script stops and
 * points at the page's refresh link.
 */
export function registerLive(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { kind: string; id: string } }>('/dashboard/live/:kind/:id', async (request, reply) => {
    reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff');
    const signed = await signedIn(services, request);
    if (!signed)
      return reply.code(401).send({
        error: {
          code: 'invalid_credential',
          message: 'Your session has ended; sign in again.',
          request_id: request.id,
        },
      });
    const source = SOURCES[request.params.kind];
    if (!source)
      return reply
        .code(404)
        .send({ error: { code: 'not_found', message: 'No such live work.', request_id: request.id } });
    try {
      // One poll is one request of the member's rate limit, however many records it reads (an
      // inbox page's 20 receipts): the token is taken here and the reads are marked as counted.
      const rate = await services.rateLimiter.take(signed.principal.credentialId);
      if (rate.retryAfterSeconds !== undefined)
        throw new AppError('rate_limited', 'Too many requests; retry later.', {
          retryAfterSeconds: rate.retryAfterSeconds,
        });
      const counted = { ...signed, principal: { ...signed.principal, requestCounted: true } };
      return reply.send(await source(services, counted, request.params.id));
    } catch (error) {
      const { appError, unexpected } = toAppError(error);
      if (unexpected) services.logger.error({ err: error, requestId: request.id }, 'live poll failed');
      if (appError.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(appError.retryAfterSeconds));
      return reply.code(appError.status).send({
        error: {
          code: appError.code,
          message: appError.message,
          ...(appError.field ? { field: appError.field } : {}),
          request_id: request.id,
        },
      });
    }
  });
}
