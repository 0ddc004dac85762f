import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PrincipalType } from '../db/tables/sessions.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import type { SessionPrincipal } from './store.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

/**
 * Issues a one-time sign-in link token for a principal (member or contractor). The caller puts it
 * in a URL and mails or prints it; only its hash is kept. Valid `ttlMs`, usable once.
 */
export async function issueSignInLink(
  db: Kysely<Database>,
  now: Date,
  principal: SessionPrincipal,
  ttlMs: number,
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = newToken();
  const id = newId(now.getTime());
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  await db
    .insertInto('sign_in_links')
    .values({
      id,
      token_hash: hashToken(token),
      principal_type: principal.type,
      principal_id: principal.id,
      organization_id: principal.organizationId,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { id, token, expiresAt };
}

/** Whom a link would sign in, without using it (the confirmation page and the unit's actor). */
export async function peekSignInLink(
  db: Kysely<Database>,
  now: Date,
  type: PrincipalType,
  token: string,
): Promise<SessionPrincipal | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const row = await db
    .selectFrom('sign_in_links')
    .select(['principal_id', 'organization_id'])
    .where('token_hash', '=', hashToken(token))
    .where('principal_type', '=', type)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { type, id: row.principal_id, organizationId: row.organization_id } : undefined;
}

/**
 * Uses the link: one compare-and-set, so of two simultaneous uses exactly one wins. Run it in the
 * unit that starts the session, so a failed start leaves the link unused.
 */
export async function consumeSignInLink(
  unit: UnitOfWork,
  type: PrincipalType,
  token: string,
): Promise<SessionPrincipal | undefined> {
  const now = unit.clock.now();
  const principal = await peekSignInLink(unit.db, now, type, token);
  if (!principal) return undefined;
  const result = await unit.db
    .updateTable('sign_in_links')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? principal : undefined;
}

/**
 * Ends the unused links of an organization (or of one principal in it) at a suspension, so a link
 * mailed before it does not work again after a reinstatement, however long it had left.
 */
export async function withdrawSignInLinks(
  db: Kysely<Database>,
  now: Date,
  scope: { organizationId: string; principal?: { type: PrincipalType; id: string } },
): Promise<void> {
  let query = db
    .updateTable('sign_in_links')
    .set({ expires_at: now.toISOString() })
    .where('organization_id', '=', scope.organizationId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString());
  if (scope.principal) {
    query = query
      .where('principal_type', '=', scope.principal.type)
      .where('principal_id', '=', scope.principal.id);
  }
  await query.execute();
}
