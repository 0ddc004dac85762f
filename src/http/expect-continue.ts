import type { FastifyInstance, preParsingHookHandler, RouteOptions } from 'fastify';

/**
 * `Expect: 100-continue` answered after identity (decision 410). Node answers "100 Continue" as
 * soon as the head arrives, before any hook runs, inviting even a stranger to send a 20 MiB body.
 * Handling `checkContinue` hands such requests to Fastify like any other, and the continue is sent
 * by the last `preParsing` hook of the route, the moment the body is about to be read: after the
 * credential or session is checked and the declared size accepted. A request refused before that
 * (401, 413, a redirect to sign in) gets only its final answer, and the client never sends the
 * body.
 */
export function continueAfterIdentity(app: FastifyInstance): void {
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  app.addHook('onRoute', (route: RouteOptions) => {
    route.preParsing = [...[route.preParsing ?? []].flat(), inviteBody];
  });
}

const inviteBody: preParsingHookHandler = (request, reply, payload, done) => {
  if (/^\s*100-continue\s*$/i.test(String(request.headers.expect ?? '')) && !reply.raw.headersSent) {
    reply.raw.writeContinue();
  }
  done(null, payload);
};
