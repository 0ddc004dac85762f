import { createHash, timingSafeEqual } from 'node:crypto';
import type { createRemoteJWKSet } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import type { SessionSettings } from './settings.ts';
import { issueSignInLink } from './sign-in-links.ts';
import { type Session, startSession } from './store.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

/** The OpenID Connect client: the issuer already trusted for access tokens, plus our registration. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** `<public URL>/dashboard/sign-in/oidc/callback`, registered at the issuer. */
  redirectUri: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const STATE_TTL_MS = 10 * 60_000;
/** How long the organization chooser's links work: the person is at the page right now. */
const CHOICE_TTL_MS = 5 * 60_000;

/** One organization the verified identity may enter, with the single-use token that enters it. */
export interface OidcChoice {
  organizationName: string;
  token: string;
}

export type OidcOutcome =
  | { kind: 'session'; session: Session; token: string }
  | { kind: 'choose'; choices: OidcChoice[] };
const discoveries = new Map<string, { discovery: Discovery; jwks: ReturnType<typeof createRemoteJWKSet> }>();

/** The issuer's discovery document (cached per process; it changes rarely). */
async function discover(issuer: string) {
  const cached = discoveries.get(issuer);
  if (cached) return cached;
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new OidcError(`the issuer's discovery document answered ${response.status}`);
  const discovery = (await response.json()) as Partial<Discovery>;
  if (!discovery.authorization_endpoint || !discovery.token_endpoint || !discovery.jwks_uri)
    throw new OidcError("the issuer's discovery document lacks an endpoint");
  // jose loads with the first OIDC sign-in, not at start.
  const { createRemoteJWKSet } = await import('jose');
  const entry = { discovery: discovery as Discovery, jwks: createRemoteJWKSet(new URL(discovery.jwks_uri)) };
  discoveries.set(issuer, entry);
  return entry;
}

/** A sign-in through the issuer that cannot complete; the page says so and offers the e-mail link. */
export class OidcError extends Error {}

/**
 * Starts an authorization code + PKCE (S256) round trip: state, verifier and nonce are kept in the
 * database (any process may receive the callback), the state only as its hash.
 */
export async function beginOidcSignIn(
  db: Kysely<Database>,
  now: Date,
  oidc: OidcSettings,
): Promise<{ url: string; state: string }> {
  const { discovery } = await discover(oidc.issuer);
  const state = newToken();
  const verifier = newToken();
  const nonce = newToken();
  await db
    .insertInto('oidc_sign_ins')
    .values({
      state_hash: hashToken(state),
      code_verifier: verifier,
      nonce,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + STATE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: oidc.clientId,
    redirect_uri: oidc.redirectUri,
    scope: 'openid email',
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  // The transport binds the state to the browser (a short-lived cookie the callback must carry).
  return { url: url.toString(), state };
}

/** How long the browser keeps the state cookie: as long as the state itself works. */
export const OIDC_STATE_TTL_SECONDS = STATE_TTL_MS / 1000;
/** How long the browser keeps the chooser's binding cookie: as long as the choices work. */
export const OIDC_CHOICE_TTL_SECONDS = CHOICE_TTL_MS / 1000;

/** Whether the state came back to the browser that started the sign-in (login CSRF). */
function sameBrowser(state: string, browserState: string | undefined): boolean {
  if (browserState === undefined) return false;
  const a = Buffer.from(hashToken(state), 'hex');
  const b = Buffer.from(hashToken(browserState), 'hex');
  return timingSafeEqual(a, b);
}

/**
 * The chooser's binding: what the browser that saw the choices keeps in a cookie (a prefix of
 * each choice's hash), so a choice token carried to another browser signs nobody in there.
 */
export function choiceBinding(choices: readonly OidcChoice[]): string {
  return choices.map((choice) => hashToken(choice.token).slice(0, 32)).join('.');
}

export function choiceIsBound(binding: string | undefined, token: string): boolean {
  if (binding === undefined || !isTokenShaped(token)) return false;
  return binding.split('.').includes(hashToken(token).slice(0, 32));
}

/** Spends the state (once), so a replayed callback does nothing. */
async function takeState(db: Kysely<Database>, now: Date, state: string) {
  if (!isTokenShaped(state)) return undefined;
  const row = await db
    .selectFrom('oidc_sign_ins')
    .select(['code_verifier', 'nonce'])
    .where('state_hash', '=', hashToken(state))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return undefined;
  const taken = await db
    .updateTable('oidc_sign_ins')
    .set({ used_at: now.toISOString() })
    .where('state_hash', '=', hashToken(state))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? row : undefined;
}

/**
 * The callback: exchanges the code (with the verifier), verifies the ID token (issuer, audience,
 * nonce, signature from the issuer's keys), maps `sub` to the one active member with that
 * `oauth_subject`, and starts a session. An identity that is an active member of several
 * organizations gets one single-use, short-lived sign-in link per organization instead, for the
 * page to offer as a choice (decision 278). Throws OidcError with a reason the page can show.
 */
export async function finishOidcSignIn(
  runtime: UnitRuntime,
  settings: SessionSettings,
  oidc: OidcSettings,
  callback: {
    state: string;
    /** The state cookie this browser carries (set when it started the sign-in). */
    browserState: string | undefined;
    code: string;
    userAgent: string | undefined;
    requestId: string;
  },
): Promise<OidcOutcome> {
  const now = runtime.clock.now();
  // A callback URL made by someone else (their state, their code) signs this browser in to nothing.
  if (!sameBrowser(callback.state, callback.browserState))
    throw new OidcError('the sign-in was started in another browser or has expired; start again');
  const stored = await takeState(runtime.db.kysely, now, callback.state);
  if (!stored) throw new OidcError('the sign-in took too long or was already used; start again');
  const { discovery, jwks } = await discover(oidc.issuer);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (oidc.clientSecret)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(oidc.clientSecret)}`).toString('base64')}`;
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers,
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.code.slice(0, 2048),
      redirect_uri: oidc.redirectUri,
      client_id: oidc.clientId,
      code_verifier: stored.code_verifier,
    }).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  const tokens = (await response.json().catch(() => ({}))) as { id_token?: unknown };
  if (!response.ok || typeof tokens.id_token !== 'string')
    throw new OidcError(`the issuer refused the sign-in (HTTP ${response.status})`);
  let subject: string;
  try {
    const { jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(tokens.id_token, jwks, {
      issuer: oidc.issuer,
      audience: oidc.clientId,
      currentDate: now,
    });
    if (payload.nonce !== stored.nonce || typeof payload.sub !== 'string')
      throw new Error('nonce or subject');
    subject = payload.sub;
  } catch {
    throw new OidcError("the issuer's ID token could not be verified");
  }
  const members = await runtime.db.kysely
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.id', 'm.organization_id', 'o.name'])
    .where('m.oauth_subject', '=', subject)
    .where('m.status', '=', 'active')
    .orderBy('o.name')
    .execute();
  const member = members[0];
  if (!member) throw new OidcError('this identity is not an active member of any organization');
  if (members.length > 1)
    return { kind: 'choose', choices: await choices(runtime, members, callback.requestId) };
  const sessionId = newId();
  const principal = { type: 'member' as const, id: member.id, organizationId: member.organization_id };
  return withUnit(
    runtime,
    {
      organizationId: principal.organizationId,
      actor: { type: 'member', memberId: principal.id, credentialId: `session:${sessionId}` },
      operation: 'dashboard.signIn',
      transport: 'dashboard',
      requestId: callback.requestId,
    },
    async (unit) => ({
      kind: 'session' as const,
      ...(await startSession(unit, settings, {
        principal,
        method: 'oidc',
        userAgent: callback.userAgent,
        id: sessionId,
      })),
    }),
  );
}

/** One audited sign-in link per membership; only their hashes are kept, as for e-mailed links. */
async function choices(
  runtime: UnitRuntime,
  members: ReadonlyArray<{ id: string; organization_id: string; name: string }>,
  requestId: string,
): Promise<OidcChoice[]> {
  const made: OidcChoice[] = [];
  for (const member of members) {
    const principal = { type: 'member' as const, id: member.id, organizationId: member.organization_id };
    const token = await withUnit(
      runtime,
      {
        organizationId: member.organization_id,
        actor: { type: 'member', memberId: member.id, credentialId: 'oidc' },
        operation: 'dashboard.signIn.oidcChoice',
        transport: 'dashboard',
        requestId,
      },
      async (unit) => {
        const issued = await issueSignInLink(unit.db, unit.clock.now(), principal, CHOICE_TTL_MS);
        await unit.audit({
          recordType: 'sign_in_link',
          recordId: issued.id,
          beforeRevision: null,
          afterRevision: null,
        });
        return issued.token;
      },
    );
    made.push({ organizationName: member.name, token });
  }
  return made;
}
