import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asBool, asIso } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import type { Services } from '../services.ts';
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
    };

export type AcceptResult =
  | PortalInvitation
  | { kind: 'accepted'; organizationName: string; contractorName: string };

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
  };
}

export async function lookUpInvitation(services: Services, token: string): Promise<PortalInvitation> {
  return describe(await findByToken(services.db.kysely, token), services.clock.now());
}

/**
 * Accepts in one transaction: the invitation becomes accepted and the contractor joined (both
 * revisions +1), audited with the contractor as actor, and `invitation.accepted` is recorded.
 * Both updates are compare-and-set, so a revoke, a new invitation or a second accept racing
 * this one leaves exactly one winner; the loser sees the invitation's new state.
 */
export async function acceptInvitation(
  services: Services,
  token: string,
  requestId: string,
): Promise<AcceptResult> {
  const now = services.clock.now();
  const nowIso = now.toISOString();
  try {
    const result = await services.db.kysely.transaction().execute(async (trx): Promise<AcceptResult> => {
      const row = await findByToken(trx, token);
      const state = describe(row, now);
      if (state.kind !== 'open' || !row) return state;
      const invitation = await trx
        .updateTable('contractor_invitations')
        .set({ status: 'accepted', accepted_at: nowIso, revision: row.revision + 1, updated_at: nowIso })
        .where('id', '=', row.id)
        .where('organization_id', '=', row.organization_id)
        .where('status', '=', 'open')
        .where('revision', '=', row.revision)
        .executeTakeFirst();
      const contractor = await trx
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
        trx
          .insertInto('audit_log')
          .values({
            id: newId(),
            organization_id: row.organization_id,
            actor_type: 'contractor',
            actor_id: row.contractor_id,
            credential_id: null,
            operation: 'portal.invitations.accept',
            request_id: requestId,
            record_type: recordType,
            record_id: recordId,
            before_revision: before,
            after_revision: before + 1,
            created_at: nowIso,
          })
          .execute();
      await audit('invitation', row.id, row.revision);
      await audit('contractor', row.contractor_id, row.contractor_revision);
      await services.events.record(
        trx,
        row.organization_id,
        {
          type: 'invitation.accepted',
          subject: { type: 'invitation', id: row.id },
          data: {
            contractorId: row.contractor_id,
            email: row.email,
            acceptedAt: Math.floor(now.getTime() / 1000),
          },
        },
        { requestId, now },
      );
      return {
        kind: 'accepted',
        organizationName: row.organization_name,
        contractorName: row.display_name,
      };
    });
    // invitation.accepted was committed: deliver it now rather than at the next poll.
    if (result.kind === 'accepted') services.wakeups.notify('events');
    return result;
  } catch (error) {
    if (error instanceof RaceLost) return lookUpInvitation(services, token);
    throw error;
  }
}

/** Thrown inside the transaction so that a half-done accept rolls back. */
class RaceLost extends Error {}
