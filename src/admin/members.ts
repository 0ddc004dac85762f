import type { Kysely, Selectable } from 'kysely';
import type { Role } from '../contract/access.ts';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import type { MembersTable } from '../db/tables/core.ts';
import { newId } from '../lib/ids.ts';
import { withdrawSignInLinks } from '../sessions/sign-in-links.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { revokeKeysOfMember } from './api-keys.ts';

export type MemberRow = Selectable<MembersTable>;

/**
 * Member administration over the API. Every change locks the organization row first
 * (PostgreSQL; SQLite has one writer at a time), so two admins demoting or suspending each
 * other at once cannot both pass the "last active admin" check.
 */

async function lockOrganization(unit: UnitOfWork): Promise<void> {
  let query = unit.db.selectFrom('organizations').select('id').where('id', '=', unit.organizationId);
  if (unit.dialect === 'postgres') query = query.forUpdate();
  await query.execute();
}

export async function requireMember(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<MemberRow> {
  const row = await db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Member', 'id');
  return row;
}

export async function addMemberByEmail(
  unit: UnitOfWork,
  input: { email: string; role: Role; name?: string | undefined; oauthSubject?: string | undefined },
): Promise<MemberRow> {
  await lockOrganization(unit);
  const email = input.email.toLowerCase();
  const existing = await unit.db
    .selectFrom('members')
    .select(['id', 'status'])
    .where('organization_id', '=', unit.organizationId)
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing) {
    throw new AppError('member_email_taken', 'A member with this email already exists in the organization.', {
      field: 'email',
      details: { member_id: existing.id, status: existing.status },
    });
  }
  const now = unit.clock.now().toISOString();
  const row: MemberRow = {
    id: newId(),
    organization_id: unit.organizationId,
    email,
    name: input.name ?? null,
    role: input.role,
    status: 'active',
    oauth_subject: input.oauthSubject ?? null,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await unit.db.insertInto('members').values(row).execute();
  await unit.audit({ recordType: 'member', recordId: row.id, beforeRevision: null, afterRevision: 1 });
  return row;
}

/**
 * `active` reinstates a suspended member: the dashboard's `admin.members.reinstate` (dashboard only)
 * and the operator's CLI, never an API key (decision 440).
 */
export type MemberChange = { role: Role } | { status: 'suspended' | 'removed' | 'active' };

/**
 * 404 -> 409 revision_conflict -> 409 invalid_state -> 409 last_admin, then a compare-and-set.
 * Suspending or removing a member revokes their API keys in the same transaction; OAuth tokens
 * (and later dashboard sessions) stop because every request checks the membership.
 */
export async function changeMember(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
  change: MemberChange,
): Promise<MemberRow> {
  await lockOrganization(unit);
  const row = await requireMember(unit.db, unit.organizationId, id);
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  const refusedState = row.status === 'removed' || ('status' in change && row.status === change.status);
  if (refusedState) {
    throw new AppError('invalid_state', `A ${row.status} member cannot be changed this way.`, {
      details: { state: row.status },
    });
  }
  const leavesActive = 'status' in change && change.status !== 'active';
  const losesAdmin =
    row.role === 'admin' &&
    row.status === 'active' &&
    (leavesActive || ('role' in change && change.role !== 'admin'));
  if (losesAdmin && (await otherActiveAdmins(unit, row.id)) === 0) {
    throw new AppError('last_admin', 'The organization must keep at least one active admin.', {
      details: { member_id: row.id },
    });
  }
  const updated = await unit.db
    .updateTable('members')
    .set({
      ...('role' in change ? { role: change.role } : { status: change.status }),
      revision: row.revision + 1,
      updated_at: unit.clock.now().toISOString(),
    })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw revisionConflict((await requireMember(unit.db, unit.organizationId, id)).revision);
  await unit.audit({
    recordType: 'member',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: updated.revision,
  });
  // A reinstated member gets no key back: keys ended with the suspension, new ones are made anew.
  if (leavesActive) {
    await revokeKeysOfMember(unit, row.id);
    // Sign-in links mailed before the suspension die with it (not valid again on reinstatement).
    await withdrawSignInLinks(unit.db, unit.clock.now(), {
      organizationId: unit.organizationId,
      principal: { type: 'member', id: row.id },
    });
  }
  return updated;
}

async function otherActiveAdmins(unit: UnitOfWork, memberId: string): Promise<number> {
  const row = await unit.db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', unit.organizationId)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('id', '!=', memberId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listMembers(
  db: Kysely<Database>,
  organizationId: string,
  filter: { limit: number; offset: number; status?: string | undefined; role?: string | undefined },
) {
  let query = db.selectFrom('members').selectAll().where('organization_id', '=', organizationId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.role !== undefined) query = query.where('role', '=', filter.role);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}
