import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (43 characters): session cookies, sign-in links, OIDC state. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Anything else cannot be one of our tokens; refused before touching the database. */
export function isTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

/** What the database stores and looks up: the hex SHA-256, never the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The CSRF token of a session: an HMAC keyed by the session's cookie token. It needs no storage,
 * differs per session, and cannot be computed by a page that cannot read the HttpOnly cookie.
 */
export function csrfToken(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('dashboard-csrf').digest('base64url');
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfMatches(sessionToken: string, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(csrfToken(sessionToken));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
