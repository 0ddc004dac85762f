import type { FastifyInstance } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import { clientKey } from '../../http/portal-routes.ts';
import { fromOwnPage } from '../../http/same-origin.ts';
import type { Services } from '../../services.ts';
import { clearedCookie, readCookie } from '../../sessions/cookies.ts';
import { MEMBER_LINK_PATH, memberSignInLinks, signInWithMemberLink } from '../../sessions/member-sign-in.ts';
import { choiceIsBound } from '../../sessions/oidc.ts';
import { peekSignInLink } from '../../sessions/sign-in-links.ts';
import { endSession } from '../../sessions/store.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { formBody } from '../forms.ts';
import { html } from '../html.ts';
import { errorBox, layout } from '../layout.ts';
import { checkCsrf, csrfRefused, memberCookieName, sendHtml, signedIn } from './context.ts';
import { OIDC_CHOICE_PATH, oidcCookieName, registerOidcRoutes } from './oidc-routes.ts';
import { limited, setSessionCookie, signInPage, tooMany } from './sign-in-page.ts';

const FORM_LIMIT = 16 * 1024;

/**
 * Member sign-in: the e-mail form, the link's confirmation page (opening a link signs nobody in,
 * so mail scanners that prefetch links do not spend them), the POST that spends it and starts a
 * session, and sign-out.
 */
export function registerSignInRoutes(app: FastifyInstance, services: Services): void {
  const { config } = services;
  const sso = config.sessions.oidc !== undefined;
  registerOidcRoutes(app, services);

  app.get('/dashboard/sign-in', async (request, reply) => {
    if (await signedIn(services, request)) return reply.redirect('/dashboard', 303);
    const signedOut = (request.query as Record<string, unknown>)['signed-out'] !== undefined;
    return sendHtml(reply, 200, signInPage(signedOut ? 'You are signed out.' : undefined, undefined, sso));
  });

  app.post('/dashboard/sign-in', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    const email = (formBody(request).get('email') ?? '').trim().toLowerCase();
    if (!/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email)) {
      const error = new AppError('invalid_input', 'Enter an e-mail address like name@example.com.', {
        field: 'email',
      });
      return sendHtml(reply, 400, signInPage(undefined, errorBox(error.message, error.code, request.id)));
    }
    const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
    if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
    // The address's own allowance: once anyone has spent it, no more mail goes to it, but the
    // answer stays the same, so a stranger can neither lock a member out nor learn anything
    // (decision 389). Only the asking client's own limit answers 429.
    if ((await limited(services, [`email:${email}`])) === undefined) {
      await memberSignInLinks(services, config.sessions, config.publicUrl, {
        email,
        mail: true,
        requestId: request.id,
      });
    }
    // The same answer whether or not the address is a member's: the page reveals no membership.
    return sendHtml(
      reply,
      200,
      signInPage(
        `If ${email} belongs to a member, a sign-in link is on its way. It works once, for ${Math.round(config.sessions.linkTtlMs / 60_000)} minutes.`,
      ),
    );
  });

  app.get<{ Params: { token: string } }>(`${MEMBER_LINK_PATH}:token`, async (request, reply) => {
    reply.header('Referrer-Policy', 'no-referrer');
    const { token } = request.params;
    const principal = await peekSignInLink(services.db.kysely, services.clock.now(), 'member', token);
    if (!principal) return sendHtml(reply, 400, invalidLinkPage(request.id));
    return sendHtml(
      reply,
      200,
      layout({
        title: 'Sign in',
        body: html`<section class="card"><form method="post" action="${MEMBER_LINK_PATH}${token}">
<p>Continue to sign in to the accounting dashboard on this device.</p>
<p><button type="submit">Sign in</button></p></form></section>`,
      }),
    );
  });

  // The e-mailed link's confirmation, and the organization chooser after single sign-on (decision
  // 278): both spend a single-use sign-in link and start a session.
  for (const [path, method] of [
    [MEMBER_LINK_PATH, 'link'],
    [OIDC_CHOICE_PATH, 'oidc'],
  ] as const) {
    app.post<{ Params: { token: string } }>(
      `${path}:token`,
      { bodyLimit: FORM_LIMIT },
      async (request, reply) => {
        const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
        if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
        // Login CSRF: another site must not sign this browser in to someone else's session.
        if (!fromOwnPage(request, config.publicUrl)) return sendHtml(reply, 403, crossSitePage(request.id));
        const { token } = request.params;
        // A choice works only in the browser that was shown it (the chooser's cookie).
        const choiceCookie = oidcCookieName(services, 'choice');
        if (method === 'oidc' && !choiceIsBound(readCookie(request.headers.cookie, choiceCookie), token)) {
          return sendHtml(reply, 400, invalidLinkPage(request.id));
        }
        const started = await signInWithMemberLink(services, config.sessions, token, {
          userAgent: request.headers['user-agent'],
          requestId: request.id,
          method,
        });
        if (!started) return sendHtml(reply, 400, invalidLinkPage(request.id));
        setSessionCookie(services, reply, started.token);
        if (method === 'oidc')
          reply.header('Set-Cookie', clearedCookie(choiceCookie, config.sessions.secureCookies));
        return reply.redirect('/dashboard', 303);
      },
    );
  }

  // Sign-out changes nothing until the request is shown to come from our page with the session's
  // CSRF token: a refused request keeps both the session and the cookie.
  app.post('/dashboard/sign-out', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    if (!fromOwnPage(request, config.publicUrl)) return sendHtml(reply, 403, crossSitePage(request.id));
    const signed = await signedIn(services, request);
    if (signed) {
      try {
        checkCsrf(request, signed.token, formBody(request).get('_csrf'));
      } catch (error) {
        return csrfRefused(reply, request, signed, error);
      }
    }
    reply.header('Set-Cookie', clearedCookie(memberCookieName(services), config.sessions.secureCookies));
    if (signed) {
      await withUnit(
        services,
        {
          organizationId: signed.principal.organizationId,
          actor: {
            type: 'member',
            memberId: signed.principal.memberId,
            credentialId: signed.principal.credentialId,
          },
          operation: 'dashboard.signOut',
          transport: 'dashboard',
          requestId: request.id,
        },
        (unit) => endSession(unit, signed.session.principal, signed.session.id, 'signed_out'),
      );
    }
    return reply.redirect('/dashboard/sign-in?signed-out', 303);
  });
}

function crossSitePage(requestId: string): string {
  return layout({
    title: 'The form came from another site',
    body: html`${errorBox('The form was sent from another site; open the sign-in page here and try again.', 'csrf_failed', requestId)}
<p><a href="/dashboard/sign-in">Sign in</a></p>`,
  });
}

function invalidLinkPage(requestId: string): string {
  return layout({
    title: 'This sign-in link does not work',
    body: html`${errorBox('The link was already used, has expired, or is not a sign-in link.', 'sign_in_link_invalid', requestId)}
<p><a href="/dashboard/sign-in">Ask for a new sign-in link</a></p>`,
  });
}
