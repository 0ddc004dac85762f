import type { Kysely } from 'kysely';
import type { MemberStatus, Role, Scope } from '../contract/access.ts';
import { generateApiKey } from '../contract/api-key-format.ts';
import type { Database } from '../db/schema.ts';
import { dbJson } from '../db/values.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';

/**
 * Administration used by the CLI (and by tests as factories). These run outside the API:
 * whoever can run them already controls the database.
 */

export async function createOrganization(
  db: Kysely<Database>,
  clock: Clock,
  input: { name: string; timeZone?: string | undefined; id?: string | undefined },
) {
  const organization = {
    id: input.id ?? newId(),
    name: input.name,
    time_zone: input.timeZone ?? 'UTC',
    created_at: clock.now().toISOString(),
    updated_at: clock.now().toISOString(),
  };
  await db.insertInto('organizations').values(organization).execute();
  return organization;
}

export async function addMember(
  db: Kysely<Database>,
  clock: Clock,
  input: { organizationId: string; email: string; role: Role; name?: string; oauthSubject?: string },
) {
  const now = clock.now().toISOString();
  const member = {
    id: newId(),
    organization_id: input.organizationId,
    email: input.email.toLowerCase(),
    name: input.name ?? null,
    role: input.role,
    status: 'active',
    oauth_subject: input.oauthSubject ?? null,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('members').values(member).execute();
  return member;
}

export async function setMemberStatus(
  db: Kysely<Database>,
  clock: Clock,
  input: { organizationId: string; memberId: string; status: MemberStatus },
): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set((eb) => ({
      status: input.status,
      updated_at: clock.now().toISOString(),
      revision: eb('revision', '+', 1),
    }))
    .where('id', '=', input.memberId)
    .where('organization_id', '=', input.organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The token is returned once; only its hash is stored. */
export async function createApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { organizationId: string; memberId: string; scopes: readonly Scope[]; name?: string },
) {
  const member = await db
    .selectFrom('members')
    .select('id')
    .where('id', '=', input.memberId)
    .where('organization_id', '=', input.organizationId)
    .executeTakeFirst();
  if (!member) throw new Error(`member ${input.memberId} is not in organization ${input.organizationId}`);
  const key = generateApiKey();
  const id = newId();
  await db
    .insertInto('api_keys')
    .values({
      id,
      organization_id: input.organizationId,
      member_id: input.memberId,
      lookup_id: key.lookupId,
      secret_hash: key.secretHash,
      scopes: dbJson([...input.scopes]),
      name: input.name ?? null,
      created_at: clock.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, token: key.token, scopes: [...input.scopes] };
}

export async function revokeApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { organizationId: string; keyId: string },
) {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: clock.now().toISOString() })
    .where('id', '=', input.keyId)
    .where('organization_id', '=', input.organizationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** First run: an organization, an admin member and a key with every accounting scope. */
export async function initialize(
  db: Kysely<Database>,
  clock: Clock,
  input: { organizationName?: string; email?: string; timeZone?: string } = {},
) {
  const organization = await createOrganization(db, clock, {
    name: input.organizationName ?? 'My organization',
    timeZone: input.timeZone,
  });
  const member = await addMember(db, clock, {
    organizationId: organization.id,
    email: input.email ?? 'admin@localhost',
    role: 'admin',
    name: 'Administrator',
  });
  const key = await createApiKey(db, clock, {
    organizationId: organization.id,
    memberId: member.id,
    scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
    name: 'initial key',
  });
  return { organizationId: organization.id, memberId: member.id, apiKey: key.token };
}

/** Every organization, oldest first (the CLI's `orgs list`). */
export function listOrganizations(db: Kysely<Database>) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'time_zone', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function organizationExists(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
