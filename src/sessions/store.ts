import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PrincipalType, WebSessionsTable } from '../db/tables/sessions.ts';
import { asIso } from '../db/values.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { principalIsActive } from './principals.ts';
import type { SessionSettings } from './settings.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

export interface SessionPrincipal {
  type: PrincipalType;
  id: string;
  organizationId: string;
}

export interface Session {
  id: string;
  principal: SessionPrincipal;
  method: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

/** Touching a session writes at most once a minute, not on every page. */
const TOUCH_RESOLUTION_MS = 60_000;

function toSession(row: Selectable<WebSessionsTable>): Session {
  return {
    id: row.id,
    principal: {
      type: row.principal_type as PrincipalType,
      id: row.principal_id,
      organizationId: row.organization_id,
    },
    method: row.method,
    userAgent: row.user_agent,
    createdAt: asIso(row.created_at),
    lastSeenAt: asIso(row.last_seen_at),
    expiresAt: asIso(row.expires_at),
  };
}

/** Starts a session (inside the unit that consumed the sign-in); the token goes in the cookie only. */
export async function startSession(
  unit: UnitOfWork,
  settings: SessionSettings,
  start: {
    principal: SessionPrincipal;
    /** How it started: an e-mailed link, single sign-on, or accepting a portal invitation. */
    method: 'link' | 'oidc' | 'invitation';
    userAgent: string | undefined;
    /** Chosen before the unit opens so its audit actor can name the session. */
    id?: string;
  },
): Promise<{ session: Session; token: string }> {
  const now = unit.clock.now();
  const token = newToken();
  const row = {
    id: start.id ?? newId(now.getTime()),
    token_hash: hashToken(token),
    principal_type: start.principal.type,
    principal_id: start.principal.id,
    organization_id: start.principal.organizationId,
    method: start.method,
    user_agent: start.userAgent?.slice(0, 300) ?? null,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    idle_expires_at: new Date(now.getTime() + settings.idleMs).toISOString(),
    expires_at: new Date(now.getTime() + settings.absoluteMs).toISOString(),
    ended_at: null,
    end_reason: null,
  };
  await unit.db.insertInto('web_sessions').values(row).execute();
  await unit.audit({
    recordType: 'web_session',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: null,
  });
  return { session: toSession(row), token };
}

/**
 * The live session behind a cookie token, or undefined: unknown, ended, idle too long, past its
 * absolute expiry, of another kind of principal, or whose principal is no longer active (that
 * session is ended on the spot). A live session's idle expiry moves forward.
 */
export async function readSession(
  db: Kysely<Database>,
  clock: Clock,
  settings: SessionSettings,
  type: PrincipalType,
  token: string | undefined,
): Promise<Session | undefined> {
  if (token === undefined || !isTokenShaped(token)) return undefined;
  const row = await db
    .selectFrom('web_sessions')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('principal_type', '=', type)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = clock.now();
  const nowMs = now.getTime();
  if (nowMs >= Date.parse(asIso(row.idle_expires_at)) || nowMs >= Date.parse(asIso(row.expires_at))) {
    return undefined;
  }
  if (!(await principalIsActive(db, type, row.organization_id, row.principal_id))) {
    await markEnded(db, now, row.id, 'principal_inactive');
    return undefined;
  }
  if (nowMs - Date.parse(asIso(row.last_seen_at)) >= TOUCH_RESOLUTION_MS) {
    await db
      .updateTable('web_sessions')
      .set({
        last_seen_at: now.toISOString(),
        idle_expires_at: new Date(nowMs + settings.idleMs).toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
  }
  return toSession(row);
}

/** The principal's sessions that are still live, newest first (for "my sessions"). */
export async function listSessions(
  db: Kysely<Database>,
  clock: Clock,
  principal: SessionPrincipal,
): Promise<Session[]> {
  const now = clock.now().toISOString();
  const rows = await db
    .selectFrom('web_sessions')
    .selectAll()
    .where('organization_id', '=', principal.organizationId)
    .where('principal_type', '=', principal.type)
    .where('principal_id', '=', principal.id)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return rows.map(toSession);
}

/**
 * Ends one of the principal's own sessions (sign-out, or "end" in my sessions). Scoped by the
 * principal, so nobody ends another person's session by guessing its id. False when none ended.
 */
export async function endSession(
  unit: UnitOfWork,
  principal: SessionPrincipal,
  sessionId: string,
  reason: 'signed_out' | 'ended_by_owner',
): Promise<boolean> {
  const result = await unit.db
    .updateTable('web_sessions')
    .set({ ended_at: unit.clock.now().toISOString(), end_reason: reason })
    .where('id', '=', sessionId)
    .where('organization_id', '=', principal.organizationId)
    .where('principal_type', '=', principal.type)
    .where('principal_id', '=', principal.id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await unit.audit({
    recordType: 'web_session',
    recordId: sessionId,
    beforeRevision: null,
    afterRevision: null,
  });
  return true;
}

async function markEnded(db: Kysely<Database>, now: Date, id: string, reason: string): Promise<void> {
  await db
    .updateTable('web_sessions')
    .set({ ended_at: now.toISOString(), end_reason: reason })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

/**
 * Ends every open session of one principal in the caller's unit (a joined contractor whose email
 * the organization changed, decision 412): the very next request of any of them is signed out.
 */
export async function endSessionsOf(
  unit: UnitOfWork,
  principal: SessionPrincipal,
  reason: 'email_changed',
): Promise<number> {
  const result = await unit.db
    .updateTable('web_sessions')
    .set({ ended_at: unit.clock.now().toISOString(), end_reason: reason })
    .where('organization_id', '=', principal.organizationId)
    .where('principal_type', '=', principal.type)
    .where('principal_id', '=', principal.id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
