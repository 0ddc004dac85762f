import type { FastifyRequest } from 'fastify';

/**
 * Route parameters that carry a bearer secret (sign-in links, the OIDC organization chooser,
 * portal invitations: each a 43-character token whose holder may sign in or accept). A new route
 * that takes a secret in its path names the parameter `token` (or is a wildcard), and
 * test/http/request-log.redaction.test.ts walks every registered route to hold that rule.
 */
export const SECRET_PARAMS: ReadonlySet<string> = new Set(['token', '*']);

/** Path parameters that are not secrets (record ids, operation and file names, the kind of live work). */
export const PUBLIC_PARAMS: ReadonlySet<string> = new Set(['id', 'operation', 'file', 'kind']);

export const REDACTED = '<token>';

/** A path segment that could be one of our tokens, for paths no route matched (a mangled link). */
const TOKEN_LIKE = /[A-Za-z0-9_-]{32,}/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request's path as the access log writes it: no query string (OIDC `state` and `code` live
 * there), and every secret path parameter replaced by `<token>`. A matched route is rebuilt from
 * its pattern; an unmatched path has every token-like segment replaced.
 */
export function loggedPath(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const pattern = request.routeOptions?.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (pattern !== undefined && pattern !== '' && request.is404 !== true) {
    return fromPattern(pattern, params) ?? redactLoose(path);
  }
  return redactLoose(path);
}

function fromPattern(pattern: string, params: Record<string, unknown>): string | undefined {
  let failed = false;
  const rebuilt = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        // The wildcard's first segment is the token; what follows (`/accept`) is kept.
        const rest = String(params['*'] ?? '').split('/');
        rest[0] = REDACTED;
        return rest.map((part) => (TOKEN_LIKE.test(part) ? REDACTED : part)).join('/');
      }
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      if (SECRET_PARAMS.has(name) || !PUBLIC_PARAMS.has(name)) return REDACTED;
      const value = params[name];
      if (typeof value !== 'string') {
        failed = true;
        return segment;
      }
      return encodeURIComponent(value);
    })
    .join('/');
  return failed ? undefined : rebuilt;
}

function redactLoose(path: string): string {
  return path
    .split('/')
    .map((segment) => (TOKEN_LIKE.test(segment) && !UUID.test(segment) ? REDACTED : segment))
    .join('/');
}
