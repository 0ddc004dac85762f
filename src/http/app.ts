import http from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { AppError, errorBody } from '../contract/errors.ts';
import { API_VERSION } from '../contract/version.ts';
import { newId } from '../lib/ids.ts';
import { findOperation } from '../operations/catalog.ts';
import { toAppError } from '../operations/error-mapping.ts';
import type { Services } from '../services.ts';
import { checkApiVersion } from './api-version.ts';
import { bodyTooLarge, UNAUTHENTICATED_BODY_LIMIT } from './body-limits.ts';
import { continueAfterIdentity } from './expect-continue.ts';
import { lazyRequestLogger } from './lazy-request-logger.ts';
import { registerLingeringClose } from './linger.ts';
import { registerOperationRoutes } from './operation-route.ts';
import { registerOpsRoutes } from './ops-routes.ts';
import { loggedPath } from './redact.ts';

/** Extra route groups (OpenAPI, docs, MCP, portal pages) plug in here without touching the pipeline. */
export type HttpPlugin = (app: FastifyInstance, services: Services) => Promise<void> | void;

export { GLOBAL_BODY_LIMIT } from './body-limits.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
}

const ROUTES = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** The routes registered on an app built by buildHttpApp (method and pattern). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return ROUTES.get(app) ?? [];
}

export function sendError(reply: FastifyReply, requestId: string, error: AppError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  // RFC 9110 section 15.5.6: a 405 lists the methods the resource does answer.
  const allowed = error.details?.allowed_methods;
  if (error.code === 'method_not_allowed' && Array.isArray(allowed))
    reply.header('Allow', allowed.join(', '));
  return reply.code(error.status).type('application/json').send(errorBody(error, requestId));
}

export async function buildHttpApp(
  services: Services,
  plugins: readonly HttpPlugin[] = [],
): Promise<FastifyInstance> {
  const app = Fastify({
    // Fastify's logger type is narrower than pino's; the instance is pino either way.
    loggerInstance: services.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    childLoggerFactory: lazyRequestLogger,
    // Routes that take more (the API, MCP, dashboard actions) say so and know the caller first.
    bodyLimit: UNAUTHENTICATED_BODY_LIMIT,
    // Our own unique id for every request; a caller's X-Request-Id is kept in the log only.
    genReqId: () => `req_${newId().replace(/-/g, '')}`,
    trustProxy: false,
    // Fastify answers a longer path segment with its own bare 414; the request line is already
    // capped by Node's header limit, so every operation name reaches our 404 with our headers.
    routerOptions: { maxParamLength: 16 * 1024 },
    // Malformed HTTP never reaches a handler; it still gets our error body and headers.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const requestId = `req_${newId().replace(/-/g, '')}`;
      const body = JSON.stringify(
        errorBody(new AppError('invalid_input', 'The HTTP request is malformed.'), requestId),
      );
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nX-Accounting-API-Version: ${API_VERSION}\r\nConnection: close\r\n\r\n${body}`,
      );
      void error;
    },
  });

  // Fastify routes only some methods and refuses QUERY without a Content-Type with its own error
  // (a 500 here). Every other method Node parses is routed as bodyless (CONNECT never reaches
  // Fastify), so a request of any method gets our 404 or 405 with our headers.
  for (const method of http.METHODS) {
    if (method === 'CONNECT' || method === 'QUERY' || app.supportedMethods.includes(method)) continue;
    app.addHttpMethod(method);
  }
  if (app.supportedMethods.includes('QUERY')) app.addHttpMethod('QUERY', { overrideExisting: true });

  // Every response, failures and unknown routes included, carries these two headers. The hooks of
  // every request are callback-style: an async hook costs a promise and a resolution per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.header('X-Accounting-API-Version', API_VERSION);
    try {
      checkApiVersion(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  registerLingeringClose(app);
  continueAfterIdentity(app);

  // Every route pattern, for the test that checks each path secret is kept out of the log.
  const routes: RegisteredRoute[] = [];
  ROUTES.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  app.addHook('onResponse', (request, reply, done) => {
    const operation = (request.params as { operation?: string } | undefined)?.operation;
    if (operation !== undefined && findOperation(operation)) {
      services.metrics.recordRequest(operation, reply.statusCode, reply.elapsedTime / 1000);
    }
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    // The root logger with the request id, as the request's own logger would write it: a request
    // that logged nothing else never builds one (src/http/lazy-request-logger.ts).
    services.logger[level](
      {
        requestId: request.id,
        method: request.method,
        // Tokens in paths (sign-in links, the OIDC chooser, invitations) are bearer secrets.
        url: loggedPath(request),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        clientRequestId: request.headers['x-request-id'],
      },
      'request',
    );
    done();
  });

  // Bodies are read raw and parsed by the operation route, after it knows the operation exists
  // (404 before 415) and which size limit applies.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error, request: FastifyRequest, reply) => {
    // Fastify's own size check (a route's `bodyLimit`): name the limit that applied.
    if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, request.id, bodyTooLarge(request.routeOptions.bodyLimit));
    const { appError, unexpected } = toAppError(error);
    if (unexpected) request.log.error({ err: error }, 'request failed');
    return sendError(reply, request.id, appError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      request.id,
      new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );

  // PostgreSQL: the credential cache serves only while this process hears other processes' changes.
  services.credentials.listen(services.logger);
  app.addHook('onClose', () => services.credentials.close());

  registerOpsRoutes(app, services);
  registerOperationRoutes(app, services);
  for (const plugin of plugins) await plugin(app, services);
  return app;
}
