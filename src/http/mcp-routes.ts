import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import { ACCOUNTING_SCOPES } from '../contract/access.ts';
import { AppError } from '../contract/errors.ts';
import type { McpHttpHandler } from '../mcp/http-handler.ts';
import type { Principal } from '../operations/context.ts';
import type { Services } from '../services.ts';
import { GLOBAL_BODY_LIMIT } from './body-limits.ts';

export const MCP_PATH = '/mcp';
/** The caller, known from the headers before the body was read. */
const PRINCIPALS = new WeakMap<FastifyRequest, Principal>();
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The address clients use for this server. The configured public URL wins when the request came
 * to its host (so an https proxy in front is reported correctly); otherwise the request's own Host.
 */
function baseUrl(services: Services, request: FastifyRequest): string {
  const configured = new URL(services.config.publicUrl);
  if (configured.host === request.host) return services.config.publicUrl;
  return `${request.protocol}://${request.host}`;
}

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
function resourceMetadata(services: Services, base: string): Record<string, unknown> {
  const issuer = services.config.oauth?.issuer;
  return {
    resource: `${base}${MCP_PATH}`,
    ...(issuer ? { authorization_servers: [issuer] } : {}),
    scopes_supported: [...ACCOUNTING_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Accounting Service (MCP)',
    resource_documentation: `${base}/docs`,
  };
}

/**
 * A browser page that reaches this server (for example through DNS rebinding) sends an Origin;
 * only our own origin and local development origins are served. Clients outside a browser send none.
 */
function checkOrigin(request: FastifyRequest, base: string): void {
  const origin = header(request, 'origin');
  if (origin === undefined) return;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    hostname = '';
  }
  const allowed = new Set(['localhost', '127.0.0.1', '[::1]', new URL(base).hostname]);
  if (!allowed.has(hostname)) {
    throw new AppError('origin_not_allowed', 'Requests from this web origin are not accepted.');
  }
}

function toWebRequest(request: FastifyRequest, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || ['host', 'content-length', 'connection'].includes(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const body = request.method === 'POST' && request.body instanceof Buffer ? request.body : undefined;
  return new Request(`${base}${request.url}`, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
}

/**
 * MCP over Streamable HTTP at /mcp, authenticated with the API's own credentials. A request without
 * a valid credential gets 401 with a `WWW-Authenticate` challenge naming the RFC 9728 metadata.
 */
export async function mcpRoutes(app: FastifyInstance, services: Services): Promise<void> {
  // The MCP SDK loads on the first MCP request (src/mcp/http-handler.ts).
  let handler: Promise<McpHttpHandler> | undefined;
  const mcpHandler = () => {
    handler ??= import('../mcp/http-handler.ts').then((m) => m.createMcpHttpHandler(services));
    return handler;
  };
  app.addHook('onClose', async () => {
    if (handler) (await handler).close();
  });

  const metadata = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'public, max-age=3600')
      .send(resourceMetadata(services, baseUrl(services, request)));
  app.get(RESOURCE_METADATA_PATH, metadata);
  app.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, metadata);

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    // A tool call may carry the largest operation body; only a known caller gets to send it.
    bodyLimit: GLOBAL_BODY_LIMIT,
    // Origin, credential and rate limit come from the headers, before Fastify reads the body: a
    // stranger's upload is answered 401 and never buffered (issue 31 part 2).
    onRequest: async (request, reply) => {
      PRINCIPALS.set(request, await admit(services, request, reply));
    },
    handler: async (request, reply) => {
      const base = baseUrl(services, request);
      const principal = PRINCIPALS.get(request);
      if (!principal) throw new Error('the onRequest hook admits every MCP request');
      const response = await (await mcpHandler()).fetch(toWebRequest(request, base), {
        authInfo: {
          token: 'redacted',
          clientId: principal.credentialId,
          scopes: [...principal.scopes],
          extra: { principal: { ...principal, requestCounted: true } },
        },
      });
      return sendWebResponse(reply, response);
    },
  });
}

/** The caller behind an MCP request: origin (403), credential (401 with the challenge), rate limit (429). */
async function admit(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const base = baseUrl(services, request);
  checkOrigin(request, base);
  let principal: Principal;
  try {
    principal = await authenticate(services, {
      authorization: header(request, 'authorization'),
      organizationHeader: header(request, 'x-accounting-organization'),
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 401) {
      const invalid = error.code === 'invalid_credential' ? ', error="invalid_token"' : '';
      reply.header(
        'WWW-Authenticate',
        `Bearer resource_metadata="${base}${RESOURCE_METADATA_PATH}"${invalid}`,
      );
    }
    throw error;
  }
  // One limit per key whatever the door: every MCP request counts against the key's limit (as
  // an API call does), and a limited key gets the transport's own 429 with Retry-After.
  const rate = await services.rateLimiter.take(principal.credentialId);
  reply.header('RateLimit-Policy', `"default";q=${rate.limit};w=${rate.windowSeconds}`);
  reply.header('RateLimit', `"default";r=${rate.remaining};t=${rate.resetSeconds}`);
  if (rate.retryAfterSeconds !== undefined) {
    throw new AppError('rate_limited', 'Too many requests; retry later.', {
      retryAfterSeconds: rate.retryAfterSeconds,
    });
  }
  return principal;
}
