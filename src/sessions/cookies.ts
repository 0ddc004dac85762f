import type { PrincipalType } from '../db/tables/sessions.ts';

/**
 * One cookie name per kind of principal, so a member's dashboard session and a contractor's portal
 * session in the same browser never overwrite each other: `acct_member` / `acct_contractor`, with
 * the `__Host-` prefix when Secure (the browser then refuses it without TLS, a Domain or Path=/).
 */
export function sessionCookieName(type: PrincipalType, secure: boolean): string {
  return `${secure ? '__Host-' : ''}acct_${type}`;
}

export function sessionCookie(name: string, token: string, secure: boolean, maxAgeSeconds: number): string {
  const parts = [`${name}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearedCookie(name: string, secure: boolean): string {
  return sessionCookie(name, '', secure, 0);
}

/** The value of one cookie in a Cookie header; the first wins, as browsers send the most specific first. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
