import type { FastifyRequest } from 'fastify';

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether a POST that signs someone in or out came from one of our own pages (login CSRF and
 * forced sign-out). Browsers send `Origin` on every POST: it must name this host (the request's
 * Host, or the configured public address behind a proxy). `Origin: null` (a sandboxed frame, a
 * POST after a cross-origin redirect) and a missing Origin are refused unless the browser says
 * `Sec-Fetch-Site: same-origin`; any other Sec-Fetch-Site is refused. Programs that are not browsers never sign in here.
 */
export function fromOwnPage(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  // Pages that carry a token are served with Referrer-Policy: no-referrer, under which browsers
  // send `Origin: null` even for their own forms; Sec-Fetch-Site (which no page can set) then
  // vouches for them.
  if (site === 'same-origin') return true;
  if (site !== undefined) return false;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  const host = hostOf(origin);
  return host !== undefined && (host === request.headers.host || host === hostOf(publicUrl));
}
