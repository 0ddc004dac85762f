import type { RateLimitSettings } from '../db/shared-rate-limit.ts';
import type { OidcSettings } from './oidc.ts';

/** What the sessions domain needs from the configuration (config.ts reuses this type). */
export interface SessionSettings {
  /** ACCOUNTING_SESSION_IDLE: a session unused this long is over. */
  idleMs: number;
  /** ACCOUNTING_SESSION_MAX: a session ends this long after sign-in, however busy. */
  absoluteMs: number;
  /** ACCOUNTING_SIGN_IN_LINK_TTL: how long an e-mailed sign-in link works (once). */
  linkTtlMs: number;
  /** Cookies carry `Secure` (and the `__Host-` prefix) unless the public address is localhost. */
  secureCookies: boolean;
  /** ACCOUNTING_SIGN_IN_RATE_LIMIT: sign-in attempts per client address and per e-mail address. */
  signInRateLimit: RateLimitSettings;
  /** Sign-in through the OAuth issuer, when ACCOUNTING_OIDC_CLIENT_ID is set beside the issuer. */
  oidc: OidcSettings | undefined;
}

/** Loopback names are the only places a browser accepts a session without TLS. */
export function isLocalhost(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}
