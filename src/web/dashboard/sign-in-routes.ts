import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import { clientKey } from '../../http/portal-routes.ts';
import type { Services } from '../../services.ts';
import { clearedCookie, sessionCookie } from '../../sessions/cookies.ts';
import { MEMBER_LINK_PATH, memberSignInLinks, signInWithMemberLink } from '../../sessions/member-sign-in.ts';
import { beginOidcSignIn, finishOidcSignIn, OidcError } from '../../sessions/oidc.ts';
import { peekSignInLink } from '../../sessions/sign-in-links.ts';
import { endSession } from '../../sessions/store.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { formBody } from '../forms.ts';
import { html } from '../html.ts';
import { errorBox, layout } from '../layout.ts';
import { checkCsrf, memberCookieName, sendHtml, signedIn } from './context.ts';

const FORM_LIMIT = 16 * 1024;

function signInPage(notice?: string, error?: ReturnType<typeof errorBox>, sso = false): string {
  return layout({
    title: 'Sign in',
    notice,
    body: html`${error ?? ''}<section class="card"><form method="post" action="/dashboard/sign-in">
<label for="email">Your e-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<p class="hint">We e-mail you a link that signs you in once, within a few minutes. No password.</p>
<p><button type="submit">E-mail me a sign-in link</button></p></form></section>
${sso ? html`<section class="card"><p><a class="button" href="/dashboard/sign-in/oidc">Sign in with single sign-on</a></p></section>` : ''}`,
  });
}

/** Sign-in attempts: per client address and per e-mail address, in the shared rate-limit store. */
async function limited(services: Services, keys: readonly string[]): Promise<number | undefined> {
  for (const key of keys) {
    const state = await services.signInRateLimiter.take(`sign-in:${key}`);
    if (state.retryAfterSeconds !== undefined) return state.retryAfterSeconds;
  }
  return undefined;
}

function tooMany(reply: FastifyReply, request: FastifyRequest, retryAfter: number): FastifyReply {
  reply.header('Retry-After', String(retryAfter));
  const error = new AppError(
    'rate_limited',
    `Too many sign-in attempts; wait ${retryAfter} seconds and try again.`,
  );
  return sendHtml(reply, 429, signInPage(undefined, errorBox(error.message, error.code, request.id)));
}

/**
 * Member sign-in: the e-mail form, the link's confirmation page (opening a link signs nobody in,
 * so mail scanners that prefetch links do not spend them), the POST that spends it and starts a
 * session, and sign-out.
 */
export function registerSignInRoutes(app: FastifyInstance, services: Services): void {
  const { config } = services;
  const sso = config.sessions.oidc !== undefined;

  app.get('/dashboard/sign-in', async (request, reply) => {
    if (await signedIn(services, request)) return reply.redirect('/dashboard', 303);
    const signedOut = (request.query as Record<string, unknown>)['signed-out'] !== undefined;
    return sendHtml(reply, 200, signInPage(signedOut ? 'You are signed out.' : undefined, undefined, sso));
  });

  app.get('/dashboard/sign-in/oidc', async (request, reply) => {
    const { oidc } = config.sessions;
    if (!oidc) return reply.callNotFound();
    const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
    if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
    try {
      return reply.redirect(await beginOidcSignIn(services.db.kysely, services.clock.now(), oidc), 303);
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
      try {
        if (error !== undefined || !state || !code)
          throw new OidcError(`the issuer did not sign you in (${String(error ?? 'no code').slice(0, 100)})`);
        const started = await finishOidcSignIn(services, config.sessions, oidc, {
          state,
          code,
          userAgent: request.headers['user-agent'],
          requestId: request.id,
        });
        setSessionCookie(reply, started.token);
        return reply.redirect('/dashboard', 303);
      } catch (failure) {
        return oidcFailure(reply, request.id, failure);
      }
    },
  );

  function setSessionCookie(reply: FastifyReply, token: string): void {
    const maxAge = Math.floor(config.sessions.absoluteMs / 1000);
    reply.header(
      'Set-Cookie',
      sessionCookie(memberCookieName(services), token, config.sessions.secureCookies, maxAge),
    );
  }

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

  app.post('/dashboard/sign-in', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    const email = (formBody(request).get('email') ?? '').trim().toLowerCase();
    if (!/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email)) {
      const error = new AppError('invalid_input', 'Enter an e-mail address like name@example.com.', {
        field: 'email',
      });
      return sendHtml(reply, 400, signInPage(undefined, errorBox(error.message, error.code, request.id)));
    }
    const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`, `email:${email}`]);
    if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
    await memberSignInLinks(services, config.sessions, config.publicUrl, {
      email,
      mail: true,
      requestId: request.id,
    });
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

  app.post<{ Params: { token: string } }>(
    `${MEMBER_LINK_PATH}:token`,
    { bodyLimit: FORM_LIMIT },
    async (request, reply) => {
      const retryAfter = await limited(services, [`ip:${clientKey(request.ip)}`]);
      if (retryAfter !== undefined) return tooMany(reply, request, retryAfter);
      // Login CSRF: another site must not sign this browser in to someone else's session.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== 'null' && safeHost(origin) !== request.headers.host) {
        return sendHtml(reply, 403, invalidLinkPage(request.id));
      }
      const started = await signInWithMemberLink(services, config.sessions, request.params.token, {
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      if (!started) return sendHtml(reply, 400, invalidLinkPage(request.id));
      setSessionCookie(reply, started.token);
      return reply.redirect('/dashboard', 303);
    },
  );

  app.post('/dashboard/sign-out', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    const signed = await signedIn(services, request);
    reply.header('Set-Cookie', clearedCookie(memberCookieName(services), config.sessions.secureCookies));
    if (signed) {
      checkCsrf(request, signed.token, formBody(request).get('_csrf'));
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

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function invalidLinkPage(requestId: string): string {
  return layout({
    title: 'This sign-in link does not work',
    body: html`${errorBox('The link was already used, has expired, or is not a sign-in link.', 'sign_in_link_invalid', requestId)}
<p><a href="/dashboard/sign-in">Ask for a new sign-in link</a></p>`,
  });
}
