import type { Kysely, Selectable } from 'kysely';
import type { Scope } from '../contract/access.ts';
import { generateApiKey } from '../contract/api-key-format.ts';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import type { ApiKeysTable } from '../db/tables/core.ts';
import { asIso, dbJson } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** Derived on read, like invitation expiry: exact at any instant, no job needed. */
export function keyStatus(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: Date): ApiKeyStatus {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && new Date(asIso(row.expires_at)).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export async function requireApiKey(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<ApiKeyRow> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('API key', 'id');
  return row;
}

/**
 * A key acts as the member who creates it and may carry only scopes the creating credential
 * holds, so no key can ever do more than the one that made it (issue 15, rule 3).
 */
export async function createKeyForMember(
  unit: UnitOfWork,
  input: {
    memberId: string;
    heldScopes: ReadonlySet<Scope>;
    scopes: readonly Scope[];
    name?: string | undefined;
    expiresAt?: string | undefined;
  },
): Promise<{ row: ApiKeyRow; token: string }> {
  const missing = input.scopes.filter((scope) => !input.heldScopes.has(scope));
  if (missing.length > 0) {
    throw new AppError('scope_not_held', `The credential creating this key lacks: ${missing.join(', ')}.`, {
      field: 'scopes',
      details: { missing_scopes: missing },
    });
  }
  const now = unit.clock.now();
  if (input.expiresAt !== undefined && new Date(input.expiresAt).getTime() <= now.getTime()) {
    throw new AppError('invalid_input', 'expiresAt must be in the future.', { field: 'expiresAt' });
  }
  const key = generateApiKey();
  const row: ApiKeyRow = {
    id: newId(),
    organization_id: unit.organizationId,
    member_id: input.memberId,
    lookup_id: key.lookupId,
    secret_hash: key.secretHash,
    scopes: [...new Set(input.scopes)],
    name: input.name ?? null,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
    expires_at: input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString(),
    revision: 1,
  };
  await unit.db
    .insertInto('api_keys')
    .values({ ...row, scopes: dbJson(row.scopes) })
    .execute();
  await unit.audit({ recordType: 'api_key', recordId: row.id, beforeRevision: null, afterRevision: 1 });
  return { row, token: key.token };
}

/** 404 -> 409 revision_conflict -> 409 invalid_state (already revoked); an expired key can be revoked. */
export async function revokeKey(unit: UnitOfWork, id: string, expectedRevision: number): Promise<ApiKeyRow> {
  const row = await requireApiKey(unit.db, unit.organizationId, id);
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  if (row.revoked_at !== null) {
    throw new AppError('invalid_state', 'The API key is already revoked.', { details: { state: 'revoked' } });
  }
  const updated = await unit.db
    .updateTable('api_keys')
    .set({ revoked_at: unit.clock.now().toISOString(), revision: row.revision + 1 })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw revisionConflict((await requireApiKey(unit.db, unit.organizationId, id)).revision);
  await unit.audit({
    recordType: 'api_key',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: updated.revision,
  });
  return updated;
}

/** A suspended or removed member's keys end with the membership, each with its audit row. */
export async function revokeKeysOfMember(unit: UnitOfWork, memberId: string): Promise<number> {
  const revoked = await unit.db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: unit.clock.now().toISOString(), revision: eb('revision', '+', 1) }))
    .where('organization_id', '=', unit.organizationId)
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'revision'])
    .execute();
  for (const key of revoked) {
    await unit.audit({
      recordType: 'api_key',
      recordId: key.id,
      beforeRevision: key.revision - 1,
      afterRevision: key.revision,
    });
  }
  return revoked.length;
}

export function listApiKeys(
  db: Kysely<Database>,
  organizationId: string,
  filter: { limit: number; offset: number; memberId?: string | undefined },
) {
  let query = db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId);
  if (filter.memberId !== undefined) query = query.where('member_id', '=', filter.memberId);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}
