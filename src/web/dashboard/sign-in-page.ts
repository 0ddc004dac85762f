import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import type { Services } from '../../services.ts';
import { sessionCookie } from '../../sessions/cookies.ts';
import { html } from '../html.ts';
import { errorBox, layout } from '../layout.ts';
import { memberCookieName, sendHtml } from './context.ts';

export function signInPage(notice?: string, error?: ReturnType<typeof errorBox>, sso = false): string {
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
export async function limited(services: Services, keys: readonly string[]): Promise<number | undefined> {
  for (const key of keys) {
    const state = await services.signInRateLimiter.take(`sign-in:${key}`);
    if (state.retryAfterSeconds !== undefined) return state.retryAfterSeconds;
  }
  return undefined;
}

export function tooMany(reply: FastifyReply, request: FastifyRequest, retryAfter: number): FastifyReply {
  reply.header('Retry-After', String(retryAfter));
  const error = new AppError(
    'rate_limited',
    `Too many sign-in attempts; wait ${retryAfter} seconds and try again.`,
  );
  return sendHtml(reply, 429, signInPage(undefined, errorBox(error.message, error.code, request.id)));
}

/** The member's session cookie, for as long as the session can live at most. */
export function setSessionCookie(services: Services, reply: FastifyReply, token: string): void {
  const { sessions } = services.config;
  const maxAge = Math.floor(sessions.absoluteMs / 1000);
  reply.header(
    'Set-Cookie',
    sessionCookie(memberCookieName(services), token, sessions.secureCookies, maxAge),
  );
}
