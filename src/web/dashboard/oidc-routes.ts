import type { FastifyInstance, FastifyReply } from 'fastify';
import { clientKey } from '../../http/portal-routes.ts';
import type { Services } from '../../services.ts';
import { clearedCookie, readCookie, sessionCookie, sessionCookieName } from '../../sessions/cookies.ts';
import {
  beginOidcSignIn,
  choiceBinding,
  finishOidcSignIn,
  OIDC_CHOICE_TTL_SECONDS,
  OIDC_STATE_TTL_SECONDS,
  type OidcChoice,
  OidcError,
} from '../../sessions/oidc.ts';
import { html } from '../html.ts';
import { errorBox, layout } from '../layout.ts';
import { sendHtml } from './context.ts';
import { limited, setSessionCookie, signInPage, tooMany } from './sign-in-page.ts';

/** Where the organization chooser's buttons post (sign-in-routes.ts spends the link). */
export const OIDC_CHOICE_PATH = '/dashboard/sign-in/oidc/choose/';

/**
 * The short-lived HttpOnly SameSite=Lax cookies that bind a sign-in to the browser that started it:
 * the OIDC state (the issuer's redirect back is a top-level GET, which Lax cookies accompany) and
 * the organization chooser's choices.
 */
export function oidcCookieName(services: Services, which: 'state' | 'choice'): string {
  const secure = services.config.sessions.secureCookies;
  return `${sessionCookieName('member', secure)}_oidc_${which}`;
}

/**
 * Single sign-on through the configured issuer (authorization code + PKCE): the start redirects to
 * the issuer, the callback starts a session. Both answer 404 when OIDC is not configured.
 */
export function registerOidcRoutes(app: FastifyInstance, services: Services): void {
  const { config } = services;
  const sso = config.sessions.oidc !== undefined;

  app.get('/dashboard/sign-in/oidc', async (request, reply) => {
    const { oidc } = config.sessions;
    if (!oidc) return reply.callNotFound();
    const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
    if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
    try {
      const begun = await beginOidcSignIn(services.db.kysely, services.clock.now(), oidc);
      reply.header(
        'Set-Cookie',
        sessionCookie(
          oidcCookieName(services, 'state'),
          begun.state,
          config.sessions.secureCookies,
          OIDC_STATE_TTL_SECONDS,
        ),
      );
      return reply.redirect(begun.url, 303);
    } catch (error) {
      return oidcFailure(reply, request.id, error);
    }
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/dashboard/sign-in/oidc/callback',
    async (request, reply) => {
      const { oidc } = config.sessions;
      if (!oidc) return reply.callNotFound();
      const { state, code, error } = request.query;
      const browserState = readCookie(request.headers.cookie, oidcCookieName(services, 'state'));
      // The state is spent or refused either way: the browser forgets it.
      reply.header(
        'Set-Cookie',
        clearedCookie(oidcCookieName(services, 'state'), config.sessions.secureCookies),
      );
      try {
        if (error !== undefined || !state || !code)
          throw new OidcError(`the issuer did not sign you in (${String(error ?? 'no code').slice(0, 100)})`);
        const started = await finishOidcSignIn(services, config.sessions, oidc, {
          state,
          browserState,
          code,
          userAgent: request.headers['user-agent'],
          requestId: request.id,
        });
        if (started.kind === 'choose') {
          // The links are in the page's form actions: keep them out of any Referer header.
          reply.header('Referrer-Policy', 'no-referrer');
          reply.header(
            'Set-Cookie',
            sessionCookie(
              oidcCookieName(services, 'choice'),
              choiceBinding(started.choices),
              config.sessions.secureCookies,
              OIDC_CHOICE_TTL_SECONDS,
            ),
          );
          return sendHtml(reply, 200, chooserPage(started.choices));
        }
        setSessionCookie(services, reply, started.token);
        return reply.redirect('/dashboard', 303);
      } catch (failure) {
        return oidcFailure(reply, request.id, failure);
      }
    },
  );

  function oidcFailure(reply: FastifyReply, requestId: string, error: unknown): FastifyReply {
    if (!(error instanceof OidcError))
      services.logger.error({ err: error, requestId }, 'OIDC sign-in failed');
    const message =
      error instanceof OidcError
        ? `Single sign-on did not work: ${error.message}.`
        : 'Single sign-on is unavailable right now (the issuer could not be reached); use an e-mailed link.';
    const code = error instanceof OidcError ? 'sign_in_failed' : 'oauth_unavailable';
    return sendHtml(
      reply,
      error instanceof OidcError ? 400 : 503,
      signInPage(undefined, errorBox(message, code, requestId), sso),
    );
  }
}

/** The organizations a verified identity belongs to, one button each (the links work 5 minutes). */
function chooserPage(choices: readonly OidcChoice[]): string {
  return layout({
    title: 'Choose an organization',
    body: html`<section class="card"><p>You are a member of several organizations. Choose the one to sign in to.</p>
${choices.map(
  (choice) => html`<form method="post" action="${OIDC_CHOICE_PATH}${choice.token}">
<p><button type="submit">${choice.organizationName}</button></p></form>`,
)}
<p class="hint">These choices work once, for 5 minutes. <a href="/dashboard/sign-in">Start again</a></p></section>`,
  });
}
