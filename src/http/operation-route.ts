import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import { AppError } from '../contract/errors.ts';
import { API_PREFIX } from '../contract/version.ts';
import { downloadName } from '../lib/display-text.ts';
import type { RateLimitState } from '../lib/rate-limit.ts';
import { findOperation } from '../operations/catalog.ts';
import type { Principal } from '../operations/context.ts';
import { type AnyOperation, acceptsGet } from '../operations/define.ts';
import { type InvocationMeta, invoke } from '../operations/execute.ts';
import type { StreamedUpload } from '../operations/uploads.ts';
import type { Services } from '../services.ts';
import { prefersMediaType } from './accept.ts';
import { GLOBAL_BODY_LIMIT } from './app.ts';
import { bodyTooLarge, limitedPayload, refuseDeclaredOver } from './body-limits.ts';
import { coerceQuery } from './query.ts';
import { streamField } from './streamed-upload.ts';

export const DEFAULT_MAX_BODY = 1024 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The caller, known from the headers before the body was read. */
const PRINCIPALS = new WeakMap<FastifyRequest, Principal>();
/** The file field decoded while the body arrived, for operations that declare one. */
const UPLOADS = new WeakMap<FastifyRequest, StreamedUpload>();

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The methods an operation answers; HEAD is GET without the body (RFC 9110), so it goes with GET. */
function allowedMethods(operation: AnyOperation): string[] {
  return acceptsGet(operation) ? ['GET', 'HEAD', 'POST'] : ['POST'];
}

/** GET and HEAD read their input from the query string; every other accepted method is POST. */
function readsQuery(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

/**
 * Unknown operation 404, then a method it does not answer 405 (`Allow` is set from
 * `allowed_methods` where errors are sent). Runs as an onRequest hook, before Fastify reads the
 * body, so any method (PUT, OPTIONS, TRACE, PROPFIND, ...) gets the same answer whatever it carries.
 */
function lookup(request: FastifyRequest): AnyOperation {
  const name = (request.params as { operation?: string }).operation ?? '';
  const operation = findOperation(name);
  if (!operation)
    throw new AppError('unknown_operation', `There is no operation named ${name.slice(0, 100)}.`);
  const allowed = allowedMethods(operation);
  if (allowed.includes(request.method)) return operation;
  throw new AppError('method_not_allowed', `${operation.name} accepts ${allowed.join(', ')}.`, {
    details: { allowed_methods: allowed },
  });
}

/** The most an operation reads: its own `maxBodyBytes`, else 1 MiB. */
export function bodyLimitOf(operation: AnyOperation): number {
  return operation.maxBodyBytes ?? DEFAULT_MAX_BODY;
}

/** 415 from the header alone, after the operation is known and before anything is read. */
function checkContentType(request: FastifyRequest): void {
  const contentType = header(request, 'content-type') ?? '';
  if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(contentType.trim())) {
    throw new AppError(
      'unsupported_media_type',
      'POST bodies must be sent as Content-Type: application/json.',
    );
  }
}

/** The body as read (its size was held to the operation's limit while it arrived). */
function parseBody(request: FastifyRequest, operation: AnyOperation): unknown {
  checkContentType(request);
  const body = request.body instanceof Buffer ? request.body : Buffer.alloc(0);
  if (body.length > bodyLimitOf(operation)) throw bodyTooLarge(bodyLimitOf(operation), operation.name);
  let text: string;
  try {
    // Strict: invalid bytes are refused, never replaced by U+FFFD. One leading BOM is ignored
    // (RFC 8259 section 8.1 lets a parser do so; some Windows tools write one).
    text = strictUtf8.decode(body);
  } catch {
    throw new AppError('invalid_json', 'The body is not valid UTF-8.');
  }
  // JSON's own whitespace only: an empty body stands for `{}`.
  if (/^[ \t\n\r]*$/.test(text)) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_json', 'The body is not valid JSON.');
  }
}

function rateLimitHeaders(reply: FastifyReply, state: RateLimitState | undefined): void {
  if (!state) return;
  // IETF draft-ietf-httpapi-ratelimit-headers: the policy, and what is left of it.
  reply.header('RateLimit-Policy', `"default";q=${state.limit};w=${state.windowSeconds}`);
  reply.header('RateLimit', `"default";r=${state.remaining};t=${state.resetSeconds}`);
}

function sendFile(
  reply: FastifyReply,
  file: { filename: string; mediaType: string; bytes: Buffer },
): FastifyReply {
  // Names come from users (uploaded originals): quote-safe ASCII in `filename`, the exact name in
  // RFC 8187's `filename*`.
  // Control and bidi characters are dropped first: a right-to-left override would show
  // `invoice<RLO>fdp.exe` as `invoiceexe.pdf` in the browser's download bar.
  const name = downloadName(file.filename);
  const ascii = name.replace(/[^A-Za-z0-9._-]/gu, '_');
  // RFC 8187 attr-char: encodeURIComponent leaves ' ( ) * and ! bare, which are not allowed there.
  const exact = encodeURIComponent(name).replace(
    /['()*!]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  reply.header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`);
  reply.header('X-Content-Type-Options', 'nosniff');
  return reply.code(200).type(file.mediaType).send(file.bytes);
}

export function registerOperationRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    // Every method Fastify routes (see app.ts): 404 and 405 are ours, with our headers. HEAD is
    // Fastify's automatic twin of GET: the same handler, the body left out.
    method: [...app.supportedMethods].filter((method) => method !== 'HEAD'),
    url: `${API_PREFIX}/:operation`,
    // What an authenticated caller may send at most; each operation's own limit is held below.
    bodyLimit: GLOBAL_BODY_LIMIT,
    // Identity before the body (issue 31 part 2): 404, 405, 415 and the credential (401/403) are
    // decided from the request line and headers, and a declared length over the operation's limit
    // is 413, all before Fastify reads a byte of the body.
    onRequest: async (request) => {
      const operation = lookup(request);
      if (!readsQuery(request)) checkContentType(request);
      PRINCIPALS.set(
        request,
        await authenticate(services, {
          authorization: header(request, 'authorization'),
          organizationHeader: header(request, 'x-accounting-organization'),
        }),
      );
      if (!readsQuery(request)) refuseDeclaredOver(request, bodyLimitOf(operation), operation.name);
    },
    // A chunked body declares no length: it is counted as it arrives and refused past the limit.
    preParsing: async (request, _reply, payload) => {
      const operation = lookup(request);
      const limit = bodyLimitOf(operation);
      const limited = limitedPayload(payload, limit, () => bodyTooLarge(limit, operation.name));
      // A file field is decoded as it arrives; only the rest of the JSON is kept (decision 457).
      if (operation.uploadField === undefined || readsQuery(request)) return limited;
      const declared = Number(header(request, 'content-length'));
      return streamField(
        limited,
        operation.uploadField,
        (upload) => UPLOADS.set(request, upload),
        Number.isSafeInteger(declared) && declared > 0 && declared <= limit ? declared : undefined,
      );
    },
    handler: async (request, reply) => {
      const operation = lookup(request);
      const body = readsQuery(request) ? undefined : parseBody(request, operation);
      // A POST takes its input from the body only; a query string beside it would be silently ignored.
      const stray = body === undefined ? undefined : Object.keys(request.query as object)[0];
      if (stray !== undefined) {
        throw new AppError(
          'unknown_parameter',
          `POST takes its input from the body; ${stray.slice(0, 100)} is not read from the query string.`,
          {
            field: stray.slice(0, 100),
          },
        );
      }
      const principal = PRINCIPALS.get(request);
      if (!principal) throw new Error('the onRequest hook authenticates every operation request');
      const meta: InvocationMeta = {};
      try {
        // Query parameters are input: converted only after the caller is known (401 before 400).
        // `undefined` only for GET/HEAD: a JSON `null` body must reach validation (and be refused).
        const input =
          body !== undefined
            ? body
            : coerceQuery(
                operation.input as { properties?: Record<string, { type?: string }> },
                request.query as Record<string, unknown>,
              );
        const result = await invoke(
          services,
          {
            operation,
            principal,
            input,
            idempotencyHeader: header(request, 'idempotency-key'),
            requestId: request.id,
            inputSource: readsQuery(request) ? 'query' : 'body',
            upload: UPLOADS.get(request),
          },
          meta,
        );
        if (meta.replayed) reply.header('Idempotent-Replayed', 'true');
        rateLimitHeaders(reply, meta.rateLimit);
        if (operation.file) {
          reply.header('Vary', 'Accept');
          const file = operation.file.from(result.data);
          const accept = header(request, 'accept');
          if (
            prefersMediaType(accept, file.mediaType) ||
            prefersMediaType(accept, 'application/octet-stream')
          ) {
            return sendFile(reply, file);
          }
        }
        return reply.code(200).type('application/json').send(result);
      } catch (error) {
        rateLimitHeaders(reply, meta.rateLimit);
        throw error;
      }
    },
  });
}
