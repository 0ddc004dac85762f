import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../http/portal-routes.ts';
import { fromOwnPage } from '../../http/same-origin.ts';
import {
  CONTRACTOR_LINK_PATH,
  contractorSignInLinks,
  signInWithContractorLink,
} from '../../portal/sign-in.ts';
import type { Services } from '../../services.ts';
import { clearedCookie, sessionCookie } from '../../sessions/cookies.ts';
import { peekSignInLink } from '../../sessions/sign-in-links.ts';
import { endSession } from '../../sessions/store.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { sendHtml } from '../dashboard/context.ts';
import { formBody } from '../forms.ts';
import { html } from '../html.ts';
import { errorBox } from '../layout.ts';
import { checkPortalCsrf } from './actions.ts';
import { contractorCookieName, portalLayout, portalReturnPath, portalSignedIn } from './context.ts';
import { signInBody } from './pages.ts';

const FORM_LIMIT = 16 * 1024;

async function limited(services: Services, keys: readonly string[]): Promise<number | undefined> {
  for (const key of keys) {
    const state = await services.signInRateLimiter.take(`sign-in:portal:${key}`);
    if (state.retryAfterSeconds !== undefined) return state.retryAfterSeconds;
  }
  return undefined;
}

function page(
  reply: FastifyReply,
  status: number,
  body: Parameters<typeof signInBody>[0],
  notice?: string,
  next?: string,
) {
  return sendHtml(
    reply,
    status,
    portalLayout({ title: 'Contractor portal sign-in', notice, body: signInBody(body, next) }),
  );
}

const nextOf = (request: FastifyRequest) => portalReturnPath((request.query as Record<string, unknown>).next);

function invalidLink(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return page(
    reply,
    400,
    errorBox(
      'The link was already used, has expired, or is not a sign-in link. Ask for a new one below.',
      'sign_in_link_invalid',
      request.id,
    ),
  );
}

function crossSite(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return page(
    reply,
    403,
    errorBox(
      'The form was sent from another site or without its security token; open this page again and retry.',
      'csrf_failed',
      request.id,
    ),
  );
}

/** Contractor sign-in by e-mailed single-use link (the dashboard's flow, for contractor principals). */
export function registerPortalSignIn(app: FastifyInstance, services: Services): void {
  const { config } = services;

  app.get('/portal/sign-in', async (request, reply) => {
    const next = nextOf(request);
    if (await portalSignedIn(services, request)) return reply.redirect(next ?? '/portal/hours', 303);
    const out = (request.query as Record<string, unknown>)['signed-out'] !== undefined;
    return page(reply, 200, '', out ? 'You are signed out.' : undefined, next);
  });

  app.post('/portal/sign-in', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    const form = formBody(request);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const next = portalReturnPath(form.get('next'));
    if (!/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email)) {
      return page(
        reply,
        400,
        errorBox('Enter an e-mail address like name@example.com.', 'invalid_input', request.id),
      );
    }
    const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
    if (retryAfter !== undefined) {
      reply.header('Retry-After', String(retryAfter));
      return page(
        reply,
        429,
        errorBox(`Too many sign-in attempts; wait ${retryAfter} seconds.`, 'rate_limited', request.id),
      );
    }
    // A spent address allowance sends nothing and answers as usual (decision 389).
    if ((await limited(services, [`email:${email}`])) === undefined) {
      await contractorSignInLinks(services, config.sessions, config.publicUrl, {
        email,
        requestId: request.id,
        ...(next ? { next } : {}),
      });
    }
    // The same answer for any address: the page never reveals who is a contractor.
    return page(
      reply,
      200,
      '',
      `If ${email} belongs to a contractor with portal access, a sign-in link is on its way.`,
    );
  });

  app.get<{ Params: { token: string } }>(`${CONTRACTOR_LINK_PATH}:token`, async (request, reply) => {
    reply.header('Referrer-Policy', 'no-referrer');
    const { token } = request.params;
    const next = nextOf(request);
    // Opening the link spends nothing: mail scanners prefetch links.
    if (!(await peekSignInLink(services.db.kysely, services.clock.now(), 'contractor', token))) {
      return invalidLink(reply, request);
    }
    return sendHtml(
      reply,
      200,
      portalLayout({
        title: 'Contractor portal sign-in',
        body: html`<section class="card"><form method="post" action="${CONTRACTOR_LINK_PATH}${token}${next ? `?next=${encodeURIComponent(next)}` : ''}">
<p>Continue to sign in to the contractor portal on this device.</p>
<p><button type="submit">Sign in</button></p></form></section>`,
      }),
    );
  });

  app.post<{ Params: { token: string } }>(
    `${CONTRACTOR_LINK_PATH}:token`,
    { bodyLimit: FORM_LIMIT },
    async (request, reply) => {
      const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
      if (retryAfter !== undefined) return invalidLink(reply, request);
      // Login CSRF: another site must not sign this browser in as someone else.
      if (!fromOwnPage(request, config.publicUrl)) return crossSite(reply, request);
      const started = await signInWithContractorLink(services, config.sessions, request.params.token, {
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      if (!started) return invalidLink(reply, request);
      const maxAge = Math.floor(config.sessions.absoluteMs / 1000);
      reply.header(
        'Set-Cookie',
        sessionCookie(contractorCookieName(services), started.token, config.sessions.secureCookies, maxAge),
      );
      return reply.redirect(nextOf(request) ?? '/portal/hours', 303);
    },
  );

  app.post('/portal/sign-out', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    // Nothing is cleared or ended until the request is shown to come from our page with the
    // session's CSRF token: a refused request keeps both the session and the cookie.
    if (!fromOwnPage(request, config.publicUrl)) return crossSite(reply, request);
    const signed = await portalSignedIn(services, request);
    if (signed) {
      try {
        checkPortalCsrf(request, signed, formBody(request).get('_csrf'));
      } catch {
        return crossSite(reply, request);
      }
    }
    reply.header('Set-Cookie', clearedCookie(contractorCookieName(services), config.sessions.secureCookies));
    if (signed) {
      const { organizationId, contractorId } = signed.contractor;
      await withUnit(
        services,
        {
          organizationId,
          actor: { type: 'contractor', contractorId },
          operation: 'portal.signOut',
          requestId: request.id,
        },
        (unit) => endSession(unit, signed.session.principal, signed.session.id, 'signed_out'),
      );
    }
    return reply.redirect('/portal/sign-in?signed-out', 303);
  });
}
