import { isRole, isScope, type Scope } from '../contract/access.ts';
import { looksLikeApiKey, parseApiKey, secretMatches } from '../contract/api-key-format.ts';
import { AppError } from '../contract/errors.ts';
import type { KeyRow } from '../credentials/key-cache.ts';
import { asIso, asJson } from '../db/values.ts';
import type { Principal } from '../operations/context.ts';
import type { Services } from '../services.ts';
import { verifyOAuthToken } from './oauth.ts';

export interface CredentialInput {
  authorization: string | undefined;
  organizationHeader: string | undefined;
}

/** A hash to compare against when the key is unknown, so unknown and wrong keys take the same time. */
const DUMMY_HASH = '0'.repeat(64);
const LAST_USED_RESOLUTION_MS = 60_000;

function bearerToken(authorization: string | undefined): string {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match?.[1]) {
    throw new AppError(
      'missing_credential',
      'Send a credential as Authorization: Bearer <API key or OAuth token>.',
    );
  }
  return match[1];
}

/** The key's member as the join found it (null fields: no such member in the key's organization). */
interface MemberState {
  role: string | null;
  status: string | null;
  /** The organization's suspension by the operator (null: not suspended). */
  suspended_at: string | null;
}

interface Membership {
  organizationId: string;
  memberId: string;
}

/** Credential -> organization header match -> active membership, in that order (401, then 403). */
export async function authenticate(services: Services, input: CredentialInput): Promise<Principal> {
  const token = bearerToken(input.authorization);
  const { credential, member: knownMember } = looksLikeApiKey(token)
    ? await fromApiKey(services, token)
    : { credential: await verifyOAuthToken(services, token, input.organizationHeader), member: undefined };

  if (
    input.organizationHeader !== undefined &&
    input.organizationHeader.toLowerCase() !== credential.organizationId
  ) {
    throw new AppError(
      'organization_mismatch',
      "X-Accounting-Organization does not match the credential's organization.",
    );
  }
  // An API key's member came with the key (one joined statement, or the revocation-aware cache of
  // decision 273); an OAuth subject's is read here. Either way it is judged on every request, so a
  // suspended member or a revoked key stops the very next request, on every process.
  const member =
    knownMember ??
    (await services.db.readKysely
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['m.role', 'm.status', 'o.suspended_at'])
      .where('m.id', '=', credential.memberId)
      .where('m.organization_id', '=', credential.organizationId)
      .executeTakeFirst());
  if (member?.suspended_at) {
    throw new AppError('organization_suspended', 'The organization is suspended; ask the operator.');
  }
  if (member?.status !== 'active' || member.role === null || !isRole(member.role)) {
    throw new AppError(
      'membership_inactive',
      'The member behind this credential is not active in the organization.',
    );
  }
  return { ...credential, role: member.role };
}

async function fromApiKey(
  services: Services,
  token: string,
): Promise<{ credential: Membership & Omit<Principal, 'role' | keyof Membership>; member: MemberState }> {
  const parsed = parseApiKey(token);
  const row = parsed ? await keyRow(services, parsed.lookupId) : undefined;
  const matches = secretMatches(parsed?.secret ?? '', row?.secret_hash ?? DUMMY_HASH);
  if (!row || !matches || row.revoked_at !== null) {
    throw new AppError('invalid_credential', 'The API key is not valid.');
  }
  const now = services.clock.now();
  // Checked on every request, so a key stops at its expiry instant; no job has to revoke it.
  if (row.expires_at !== null && new Date(asIso(row.expires_at)).getTime() <= now.getTime()) {
    throw new AppError('invalid_credential', 'The API key has expired.');
  }
  if (
    !row.last_used_at ||
    now.getTime() - new Date(asIso(row.last_used_at)).getTime() > LAST_USED_RESOLUTION_MS
  ) {
    row.last_used_at = now.toISOString();
    await services.db.kysely
      .updateTable('api_keys')
      .set({ last_used_at: row.last_used_at })
      .where('id', '=', row.id)
      .execute();
  }
  const scopes = asJson<string[]>(row.scopes).filter(isScope) as Scope[];
  return {
    credential: {
      organizationId: row.organization_id,
      memberId: row.member_id,
      scopes: new Set(scopes),
      credentialId: row.id,
      credentialType: 'api_key',
    },
    member: { role: row.role, status: row.status, suspended_at: row.suspended_at },
  };
}

/**
 * The key joined with its member and organization: from the revocation-aware cache when it may
 * serve (src/credentials/key-cache.ts), else one statement. Only rows that can authenticate are
 * cached; everything decided from the row is decided again on every request.
 */
async function keyRow(services: Services, lookupId: string): Promise<KeyRow | undefined> {
  const cache = services.credentials;
  const stamp = await cache.stamp();
  const cached = cache.get(lookupId, stamp);
  if (cached) return cached;
  const row = await services.db.readKysely
    .selectFrom('api_keys as k')
    .leftJoin('members as m', (join) =>
      join.onRef('m.id', '=', 'k.member_id').onRef('m.organization_id', '=', 'k.organization_id'),
    )
    .leftJoin('organizations as o', 'o.id', 'k.organization_id')
    .select([
      'k.id',
      'k.organization_id',
      'k.member_id',
      'k.secret_hash',
      'k.scopes',
      'k.last_used_at',
      'k.revoked_at',
      'k.expires_at',
      'm.role',
      'm.status',
      'o.suspended_at',
    ])
    .where('k.lookup_id', '=', lookupId)
    .executeTakeFirst();
  if (row && row.revoked_at === null) cache.set(lookupId, row, stamp);
  return row;
}
