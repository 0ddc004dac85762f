import { ALL_SCOPES, type Role, type Scope } from '../contract/access.ts';
import { AppError } from '../contract/errors.ts';
import { newId } from '../lib/ids.ts';
import { withdrawSignInLinks } from '../sessions/sign-in-links.ts';
import type { Actor } from '../unit/actor.ts';
import type { UnitOfWork, UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { type ApiKeyRow, createKeyForMember, requireApiKey, revokeKey } from './api-keys.ts';
import {
  addMemberByEmail,
  changeMember,
  type MemberChange,
  type MemberRow,
  requireMember,
} from './members.ts';
import { addMember, createApiKey, createOrganization } from './organizations.ts';

/**
 * The command line's administration: the same domain rules as the API (last active admin,
 * revisions, keys ending with a suspension) and an audit row per record changed, written by the
 * operator actor over the `cli` transport. Audit rows carry the API operation's name where one
 * exists, so a filter by operation finds a change whichever way it came in.
 */

export function operatorUnit<T>(
  runtime: UnitRuntime,
  user: string,
  organizationId: string,
  operation: string,
  work: (unit: UnitOfWork) => Promise<T>,
): Promise<T> {
  const actor: Actor = { type: 'operator', user };
  return withUnit(runtime, { organizationId, actor, operation, transport: 'cli', audit: 'required' }, work);
}

export async function operatorCreateOrganization(
  runtime: UnitRuntime,
  user: string,
  input: { name: string; timeZone?: string | undefined },
) {
  const id = newId();
  return operatorUnit(runtime, user, id, 'admin.organizations.create', async (unit) => {
    const organization = await createOrganization(unit.db, unit.clock, { ...input, id });
    await unit.audit({ recordType: 'organization', recordId: id, beforeRevision: null, afterRevision: 1 });
    return organization;
  });
}

/** First run (`init`, or `serve` on an empty database): organization, admin member, key, audited. */
export async function operatorInitialize(
  runtime: UnitRuntime,
  user: string,
  input: { organizationName?: string | undefined; email?: string | undefined; timeZone?: string | undefined },
) {
  const organizationId = newId();
  return operatorUnit(runtime, user, organizationId, 'init', async (unit) => {
    await createOrganization(unit.db, unit.clock, {
      id: organizationId,
      name: input.organizationName ?? 'My organization',
      timeZone: input.timeZone,
    });
    const member = await addMember(unit.db, unit.clock, {
      organizationId,
      email: input.email ?? 'admin@localhost',
      role: 'admin',
      name: 'Administrator',
    });
    const key = await createApiKey(unit.db, unit.clock, {
      organizationId,
      memberId: member.id,
      scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
      name: 'initial key',
    });
    for (const [recordType, recordId] of [
      ['organization', organizationId],
      ['member', member.id],
      ['api_key', key.id],
    ] as const) {
      await unit.audit({ recordType, recordId, beforeRevision: null, afterRevision: 1 });
    }
    return { organizationId, memberId: member.id, apiKey: key.token };
  });
}

export function operatorAddMember(
  runtime: UnitRuntime,
  user: string,
  input: { organizationId: string; email: string; role: Role; name?: string; oauthSubject?: string },
): Promise<MemberRow> {
  return operatorUnit(runtime, user, input.organizationId, 'admin.members.add', (unit) =>
    addMemberByEmail(unit, input),
  );
}

function changeOperation(change: MemberChange): string {
  if ('role' in change) return 'admin.members.update';
  return {
    suspended: 'admin.members.suspend',
    removed: 'admin.members.remove',
    active: 'admin.members.reinstate',
  }[change.status];
}

/** Without an expected revision the operator means "as it is now": the current one is used. */
export function operatorChangeMember(
  runtime: UnitRuntime,
  user: string,
  input: { organizationId: string; memberId: string; change: MemberChange; expectedRevision?: number },
): Promise<MemberRow> {
  return operatorUnit(runtime, user, input.organizationId, changeOperation(input.change), async (unit) => {
    const revision =
      input.expectedRevision ?? (await requireMember(unit.db, unit.organizationId, input.memberId)).revision;
    return changeMember(unit, input.memberId, revision, input.change);
  });
}

/**
 * The operator holds every scope (they control the database), so the creator's-scopes rule never
 * narrows a CLI key; the key acts as `memberId`, who must be active.
 */
export function operatorCreateKey(
  runtime: UnitRuntime,
  user: string,
  input: {
    organizationId: string;
    memberId: string;
    scopes: readonly Scope[];
    name?: string | undefined;
    expiresAt?: string | undefined;
  },
): Promise<{ row: ApiKeyRow; token: string }> {
  return operatorUnit(runtime, user, input.organizationId, 'admin.apiKeys.create', async (unit) => {
    const member = await requireMember(unit.db, unit.organizationId, input.memberId);
    if (member.status !== 'active') {
      throw new AppError(
        'invalid_state',
        `Keys are made only for active members; this one is ${member.status}.`,
        {
          details: { state: member.status },
        },
      );
    }
    return createKeyForMember(unit, { ...input, heldScopes: new Set(ALL_SCOPES) });
  });
}

export function operatorRevokeKey(
  runtime: UnitRuntime,
  user: string,
  input: { organizationId: string; keyId: string; expectedRevision?: number },
): Promise<ApiKeyRow> {
  return operatorUnit(runtime, user, input.organizationId, 'admin.apiKeys.revoke', async (unit) => {
    const revision =
      input.expectedRevision ?? (await requireApiKey(unit.db, unit.organizationId, input.keyId)).revision;
    return revokeKey(unit, input.keyId, revision);
  });
}

/**
 * `orgs suspend` / `orgs reinstate`: an operator's switch for a whole organization (unpaid
 * subscription, abuse, a security incident). While suspended, its API keys, OAuth tokens,
 * dashboard sessions and contractor portal are refused on their next request (each checks
 * `organizations.suspended_at`); nothing is deleted, and reinstating brings everything back.
 */
export async function operatorSetOrganizationSuspended(
  runtime: UnitRuntime,
  user: string,
  organizationId: string,
  suspended: boolean,
): Promise<{ organizationId: string; suspendedAt: string | null; revision: number }> {
  const operation = suspended ? 'admin.organizations.suspend' : 'admin.organizations.reinstate';
  return operatorUnit(runtime, user, organizationId, operation, async (unit) => {
    const current = await unit.db
      .selectFrom('organizations')
      .select(['revision', 'suspended_at'])
      .where('id', '=', organizationId)
      .executeTakeFirst();
    if (!current) throw new AppError('not_found', `Organization ${organizationId} does not exist.`);
    if ((current.suspended_at !== null) === suspended) {
      return { organizationId, suspendedAt: current.suspended_at, revision: current.revision };
    }
    const now = unit.clock.now().toISOString();
    const suspendedAt = suspended ? now : null;
    await unit.db
      .updateTable('organizations')
      .set({ suspended_at: suspendedAt, revision: current.revision + 1, updated_at: now })
      .where('id', '=', organizationId)
      .execute();
    // Sign-in links (members' and contractors') mailed before a suspension die with it.
    if (suspended) await withdrawSignInLinks(unit.db, unit.clock.now(), { organizationId });
    await unit.audit({
      recordType: 'organization',
      recordId: organizationId,
      beforeRevision: current.revision,
      afterRevision: current.revision + 1,
    });
    return { organizationId, suspendedAt, revision: current.revision + 1 };
  });
}
