import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asBool, asIso } from '../db/values.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { type InvitationStatus, invitationStatus } from './rules.ts';
import { isTokenShaped, tokenHash } from './token.ts';

/** What the portal can tell the holder of a link, without any credential besides the link. */
export type PortalInvitation =
  | { kind: 'unknown' }
  | { kind: 'closed'; status: Exclude<InvitationStatus, 'open'> }
  | { kind: 'contractor_inactive' | 'contractor_joined' }
  | {
      kind: 'open';
      invitationId: string;
      organizationName: string;
      contractorName: string;
      expiresAt: string;
      /** The organization's zone: the expiry is shown on its clock. */
      timeZone: string;
    };

export type AcceptResult =
  | PortalInvitation
  | {
      kind: 'accepted';
      organizationId: string;
      contractorId: string;
      organizationName: string;
      contractorName: string;
    };

/**
 * Finds the invitation of a link token. The token is hashed and the hash looked up by an index,
 * so no comparison on the secret itself can leak timing. This is the one lookup not filtered by
 * organization: the token is what tells the organization.
 */
async function findByToken(db: Kysely<Database>, token: string) {
  if (!isTokenShaped(token)) return undefined;
  return db
    .selectFrom('contractor_invitations as i')
    .innerJoin('contractors as c', (join) =>
      join.onRef('c.id', '=', 'i.contractor_id').onRef('c.organization_id', '=', 'i.organization_id'),
    )
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select([
      'i.id',
      'i.organization_id',
      'i.contractor_id',
      'i.email',
      'i.status',
      'i.expires_at',
      'i.revision',
      'c.display_name',
      'c.active',
      'c.joined_at',
      'c.revision as contractor_revision',
      'o.name as organization_name',
      'o.time_zone',
    ])
    .where('i.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
}

type Found = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

function describe(row: Found | undefined, now: Date): PortalInvitation {
  if (!row) return { kind: 'unknown' };
  const status = invitationStatus({ status: row.status, expires_at: asIso(row.expires_at) }, now);
  if (status !== 'open') return { kind: 'closed', status };
  if (row.joined_at !== null) return { kind: 'contractor_joined' };
  if (!asBool(row.active)) return { kind: 'contractor_inactive' };
  return {
    kind: 'open',
    invitationId: row.id,
    organizationName: row.organization_name,
    contractorName: row.display_name,
    expiresAt: asIso(row.expires_at),
    timeZone: row.time_zone,
  };
}

/** What the portal needs from the process: the unit-of-work runtime. */
export type PortalRuntime = UnitRuntime;

export async function lookUpInvitation(runtime: PortalRuntime, token: string): Promise<PortalInvitation> {
  return describe(await findByToken(runtime.db.kysely, token), runtime.clock.now());
}

/**
 * Accepts in one unit of work whose actor is the contractor: the invitation becomes accepted and
 * the contractor joined (both revisions +1), both audited, and `invitation.accepted` is recorded.
 * Both updates are compare-and-set, so a revoke, a new invitation or a second accept racing
 * this one leaves exactly one winner; the loser sees the invitation's new state.
 */
export async function acceptInvitation(
  runtime: PortalRuntime,
  token: string,
  requestId: string,
): Promise<AcceptResult> {
  const now = runtime.clock.now();
  // The token tells the organization, so it is read once before the unit (which needs it) opens;
  // it is read again inside, where the decision is made.
  const found = await findByToken(runtime.db.kysely, token);
  const seen = describe(found, now);
  if (seen.kind !== 'open' || !found) return seen;
  const options = {
    organizationId: found.organization_id,
    actor: { type: 'contractor', contractorId: found.contractor_id } as const,
    operation: 'portal.invitations.accept',
    requestId,
  };
  try {
    return await withUnit(runtime, options, async (unit): Promise<AcceptResult> => {
      const nowIso = now.toISOString();
      const row = await findByToken(unit.db, token);
      const state = describe(row, now);
      if (state.kind !== 'open' || !row || row.organization_id !== found.organization_id) return state;
      const invitation = await unit.db
        .updateTable('contractor_invitations')
        .set({ status: 'accepted', accepted_at: nowIso, revision: row.revision + 1, updated_at: nowIso })
        .where('id', '=', row.id)
        .where('organization_id', '=', row.organization_id)
        .where('status', '=', 'open')
        .where('revision', '=', row.revision)
        .executeTakeFirst();
      const contractor = await unit.db
        .updateTable('contractors')
        .set({ joined_at: nowIso, revision: row.contractor_revision + 1, updated_at: nowIso })
        .where('id', '=', row.contractor_id)
        .where('organization_id', '=', row.organization_id)
        .where('revision', '=', row.contractor_revision)
        .where('joined_at', 'is', null)
        .executeTakeFirst();
      // Something changed in between: roll back and report what the link shows now.
      if (Number(invitation.numUpdatedRows) !== 1 || Number(contractor.numUpdatedRows) !== 1) {
        throw new RaceLost();
      }
      const audit = (recordType: string, recordId: string, before: number) =>
        unit.audit({ recordType, recordId, beforeRevision: before, afterRevision: before + 1 });
      await audit('invitation', row.id, row.revision);
      await audit('contractor', row.contractor_id, row.contractor_revision);
      await unit.emit({
        type: 'invitation.accepted',
        subject: { type: 'invitation', id: row.id },
        data: {
          contractorId: row.contractor_id,
          email: row.email,
          acceptedAt: Math.floor(now.getTime() / 1000),
        },
      });
      return {
        kind: 'accepted',
        organizationId: row.organization_id,
        contractorId: row.contractor_id,
        organizationName: row.organization_name,
        contractorName: row.display_name,
      };
    });
  } catch (error) {
    if (error instanceof RaceLost) return lookUpInvitation(runtime, token);
    throw error;
  }
}

/** Thrown inside the transaction so that a half-done accept rolls back. */
class RaceLost extends Error {}
