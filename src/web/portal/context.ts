import type { FastifyReply, FastifyRequest } from 'fastify';
import { type PortalContractor, portalContractor } from '../../portal/access.ts';
import type { Services } from '../../services.ts';
import { readCookie, sessionCookieName } from '../../sessions/cookies.ts';
import { endSession, readSession, type Session } from '../../sessions/store.ts';
import { csrfToken } from '../../sessions/tokens.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { type Html, html, raw } from '../html.ts';

/** A request of a signed-in contractor who may still use the portal. */
export interface PortalSigned {
  session: Session;
  token: string;
  contractor: PortalContractor;
  csrf: string;
}

export function contractorCookieName(services: Services): string {
  return sessionCookieName('contractor', services.config.sessions.secureCookies);
}

/**
 * The contractor behind the cookie, checked on every request: a live session (not idle, not past
 * its end, contractor `active`) and portal access now (joined, invitation not revoked,
 * organization not suspended). A session that lost access is ended on the spot.
 */
export async function portalSignedIn(
  services: Services,
  request: FastifyRequest,
): Promise<PortalSigned | undefined> {
  const token = readCookie(request.headers.cookie, contractorCookieName(services));
  const { db, clock, config } = services;
  const session = await readSession(db.kysely, clock, config.sessions, 'contractor', token);
  if (!session || token === undefined) return undefined;
  const { organizationId, id } = session.principal;
  const contractor = await portalContractor(db.kysely, organizationId, id);
  if (!contractor) {
    await withUnit(
      services,
      {
        organizationId,
        actor: { type: 'contractor', contractorId: id },
        operation: 'portal.signOut',
        requestId: request.id,
      },
      (unit) => endSession(unit, session.principal, session.id, 'ended_by_owner'),
    );
    return undefined;
  }
  return { session, token, contractor, csrf: csrfToken(token) };
}

const NAV = [
  { key: 'hours', label: 'My hours', href: '/portal/hours' },
  { key: 'agreements', label: 'My agreements', href: '/portal/agreements' },
  { key: 'payments', label: 'My payments', href: '/portal/payments' },
] as const;

/** The portal shell: the contractor's own three pages, their name, and sign-out. */
export function portalLayout(options: {
  title: string;
  current?: string;
  signed?: PortalSigned;
  notice?: string | undefined;
  body: Html;
}): string {
  const { signed } = options;
  const nav = signed
    ? html`<nav class="main" aria-label="Portal"><ul>${NAV.map(
        (item) =>
          html`<li><a href="${item.href}"${raw(item.key === options.current ? ' aria-current="page"' : '')}>${item.label}</a></li>`,
      )}</ul></nav>
<form method="post" action="/portal/sign-out"><input type="hidden" name="_csrf" value="${signed.csrf}">
<span class="muted-light">${signed.contractor.displayName}</span> <button class="secondary" type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · Contractor portal</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
</head><body>
<a class="skip" href="#content">Skip to content</a>
<header class="top"><span class="org">${signed?.contractor.organizationName ?? 'Contractor portal'}</span>${nav}</header>
<main id="content" tabindex="-1">
<h1>${options.title}</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${options.body}
</main></body></html>
`.text;
}

/**
 * A portal page to come back to after signing in (a mailed link to an agreement), or undefined:
 * only the portal's own pages, never another site or path (decision 453).
 */
export function portalReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /^\/portal\/(hours|agreements|payments|agreements\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.test(
    value,
  )
    ? value
    : undefined;
}

/** To the sign-in page, naming the page asked for so that signing in comes back to it. */
export function toSignIn(reply: FastifyReply, asked?: string): FastifyReply {
  const next = portalReturnPath(asked?.split('?')[0]);
  return reply.redirect(next ? `/portal/sign-in?next=${encodeURIComponent(next)}` : '/portal/sign-in', 303);
}
