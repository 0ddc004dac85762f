import type * as Jose from 'jose';
import { isScope, type Scope } from '../contract/access.ts';
import { AppError } from '../contract/errors.ts';
import type { Principal } from '../operations/context.ts';
import type { Services } from '../services.ts';

type JwksGetter = ReturnType<typeof Jose.createRemoteJWKSet>;
const jwksCache = new Map<string, JwksGetter>();

function jwksFor({ createRemoteJWKSet }: typeof Jose, url: string): JwksGetter {
  let getter = jwksCache.get(url);
  if (!getter) {
    getter = createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    jwksCache.set(url, getter);
  }
  return getter;
}

function scopesOf(payload: Record<string, unknown>): Scope[] {
  const raw = payload.scope ?? payload.scp;
  const list = typeof raw === 'string' ? raw.split(/\s+/) : Array.isArray(raw) ? raw.map(String) : [];
  return list.filter(isScope);
}

/**
 * OAuth access tokens: JWTs signed by the configured issuer (keys from its JWKS), mapped to a
 * member by subject. A subject that is a member of several organizations picks one with
 * X-Accounting-Organization (or an `org_id` claim).
 */
/**
 * The issuer's fault, not the token's: the JWKS fetch failed (network error, timeout, non-200,
 * not JSON, not a key set). A caller with a good token must hear "retry", not "your token is bad".
 * jose raises its bare JOSEError class only for a non-200 answer or unparsable JSON.
 */
function issuerUnreachable(joseErrors: typeof Jose.errors, error: unknown): boolean {
  if (!(error instanceof joseErrors.JOSEError)) return true;
  return (
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid ||
    error.constructor === joseErrors.JOSEError
  );
}

export async function verifyOAuthToken(
  services: Services,
  token: string,
  organizationHeader: string | undefined,
): Promise<Omit<Principal, 'role'>> {
  const oauth = services.config.oauth;
  if (!oauth) throw new AppError('invalid_credential', 'The credential is not a valid API key.');
  // jose loads with the first OAuth token, not at start (API keys never need it).
  const jose = await import('jose');
  let payload: Record<string, unknown>;
  try {
    const verified = await jose.jwtVerify(token, jwksFor(jose, oauth.jwksUrl), {
      issuer: oauth.issuer,
      ...(oauth.audience ? { audience: oauth.audience } : {}),
      currentDate: services.clock.now(),
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
    });
    payload = verified.payload as Record<string, unknown>;
  } catch (error) {
    if (issuerUnreachable(jose.errors, error)) {
      throw new AppError(
        'oauth_unavailable',
        "The OAuth issuer's key set could not be fetched; retry later.",
        { retryAfterSeconds: 30 },
      );
    }
    const expired = error instanceof jose.errors.JWTExpired;
    throw new AppError(
      'invalid_credential',
      expired ? 'The access token has expired.' : 'The access token is not valid.',
    );
  }
  const subject = typeof payload.sub === 'string' ? payload.sub : undefined;
  if (!subject) throw new AppError('invalid_credential', 'The access token has no subject.');
  const wanted = (
    organizationHeader ?? (typeof payload.org_id === 'string' ? payload.org_id : undefined)
  )?.toLowerCase();
  const memberships = await services.db.kysely
    .selectFrom('members')
    .select(['id', 'organization_id'])
    .where('oauth_subject', '=', subject)
    .execute();
  const chosen = wanted
    ? memberships.find((m) => m.organization_id === wanted)
    : memberships.length === 1
      ? memberships[0]
      : undefined;
  if (!chosen) {
    if (memberships.length === 0)
      throw new AppError('invalid_credential', "The token's subject is not a member of any organization.");
    throw new AppError('organization_mismatch', 'Select the organization with X-Accounting-Organization.');
  }
  return {
    organizationId: chosen.organization_id,
    memberId: chosen.id,
    scopes: new Set(scopesOf(payload)),
    credentialId: `oauth:${subject}`,
    credentialType: 'oauth',
  };
}
