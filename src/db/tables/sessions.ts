import type { Timestamp } from './types.ts';

/** Who a browser session or sign-in link belongs to: a member (dashboard) or a contractor (portal). */
export type PrincipalType = 'member' | 'contractor';

/** One browser session; the cookie holds the token, the database only its SHA-256. */
export interface WebSessionsTable {
  id: string;
  token_hash: string;
  principal_type: string;
  principal_id: string;
  organization_id: string;
  /** How it started: 'link' (e-mailed or printed sign-in link) or 'oidc'. */
  method: string;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** Moves forward on use; past it the session is over (idle expiry). */
  idle_expires_at: Timestamp;
  /** Never moves: absolute expiry. */
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  /** 'signed_out', 'ended_by_owner', 'member_inactive'. */
  end_reason: string | null;
}

/** A one-time sign-in link: single use, short-lived, stored as the SHA-256 of its token. */
export interface SignInLinksTable {
  id: string;
  token_hash: string;
  principal_type: string;
  principal_id: string;
  organization_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The state of one OIDC authorization-code + PKCE round trip, keyed by the state's SHA-256. */
export interface OidcSignInsTable {
  state_hash: string;
  code_verifier: string;
  nonce: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SessionTables {
  web_sessions: WebSessionsTable;
  sign_in_links: SignInLinksTable;
  oidc_sign_ins: OidcSignInsTable;
}
