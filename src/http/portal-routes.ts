import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { crossSitePage, type PortalPage, portalPage, tooManyRequestsPage } from '../invitations/pages.ts';
import { acceptInvitation, lookUpInvitation } from '../invitations/portal.ts';
import { signInAfterAccept } from '../portal/sign-in.ts';
import type { Services } from '../services.ts';
import { sessionCookie, sessionCookieName } from '../sessions/cookies.ts';
import type { HttpPlugin } from './app.ts';
import { fromOwnPage } from './same-origin.ts';

const PREFIX = '/portal/invitations/';

/**
 * Contractor portal pages reached from invitation emails: no API credential, the link token is
 * the only secret. HTML answers still get X-Request-Id and the API version from the app's hook.
 *
 * GET  /portal/invitations/<token>         the invitation page (with an Accept form when open)
 * POST /portal/invitations/<token>/accept  accepts and signs in to the portal (decision 448)
 *
 * Wildcard routes rather than `:token`: every path under the prefix (an overlong or mangled link
 * included, which a `:param` route would answer with Fastify's own 414) gets an HTML page.
 */
export const portalRoutes: HttpPlugin = (app, services) => {
  app.get<{ Params: { '*': string } }>(`${PREFIX}*`, async (request, reply) => {
    if (limited(services, request, reply)) return reply;
    const token = request.params['*'];
    return sendPage(reply, portalPage(await lookUpInvitation(services, token), token));
  });

  // The form's body carries nothing we need; a small limit keeps junk out.
  app.post<{ Params: { '*': string } }>(`${PREFIX}*`, { bodyLimit: 4096 }, async (request, reply) => {
    if (limited(services, request, reply)) return reply;
    // Accepting signs in: the sign-in rule against login CSRF applies before anything changes.
    if (!fromOwnPage(request, services.config.publicUrl)) return sendPage(reply, crossSitePage(request.id));
    const match = /^([^/]*)\/accept$/.exec(request.params['*']);
    const token = match?.[1] ?? '';
    const result = await acceptInvitation(services, token, request.id);
    if (result.kind === 'accepted') {
      const { sessions } = services.config;
      const started = await signInAfterAccept(services, sessions, result, {
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      if (started) {
        // The portal sign-in's cookie, to the portal's first page.
        const name = sessionCookieName('contractor', sessions.secureCookies);
        const maxAge = Math.floor(sessions.absoluteMs / 1000);
        reply.header('Set-Cookie', sessionCookie(name, started.token, sessions.secureCookies, maxAge));
        return reply
          .header('Cache-Control', 'no-store')
          .header('Referrer-Policy', 'no-referrer')
          .redirect('/portal/hours?done=joined', 303);
      }
    }
    return sendPage(reply, portalPage(result, token));
  });
};

/**
 * The portal has no credential to limit by, so it limits by client address: an IPv4 address, or
 * the /64 of an IPv6 one (one host usually holds a whole /64). Behind a reverse proxy every
 * visitor shares the proxy's address (trustProxy is off), so raise ACCOUNTING_PORTAL_RATE_LIMIT there.
 */
export function clientKey(address: string): string {
  try {
    const parsed = ipaddr.process(address);
    if (parsed.kind() === 'ipv4') return parsed.toString();
    return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
  } catch {
    return address;
  }
}

function limited(services: Services, request: FastifyRequest, reply: FastifyReply): boolean {
  const state = services.portalRateLimiter.take(clientKey(request.ip));
  if (state.retryAfterSeconds === undefined) return false;
  reply.header('Retry-After', String(state.retryAfterSeconds));
  sendPage(reply, tooManyRequestsPage());
  return true;
}

function sendPage(reply: FastifyReply, page: PortalPage): FastifyReply {
  return (
    reply
      .code(page.status)
      .type('text/html; charset=utf-8')
      // The URL holds a bearer token: never cached, never sent on as a Referer, never framed.
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      )
      .send(page.html)
  );
}
