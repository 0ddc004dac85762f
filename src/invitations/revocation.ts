import type { UnitOfWork } from '../unit/unit-of-work.ts';

export interface RevocableInvitation {
  id: string;
  contractor_id: string;
  email: string;
  revision: number;
}

/**
 * Turns an open invitation into a revoked one at the revision the caller read, with its audit
 * row and `invitation.revoked` event. False when it was no longer open at that revision (an
 * accept or another revoke won the race); then nothing was written.
 */
export async function markRevoked(ctx: UnitOfWork, row: RevocableInvitation, now: Date): Promise<boolean> {
  const nowIso = now.toISOString();
  const updated = await ctx.db
    .updateTable('contractor_invitations')
    .set({ status: 'revoked', revoked_at: nowIso, revision: row.revision + 1, updated_at: nowIso })
    .where('id', '=', row.id)
    .where('organization_id', '=', ctx.organizationId)
    .where('revision', '=', row.revision)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  await ctx.audit({
    recordType: 'invitation',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: row.revision + 1,
  });
  await ctx.emit({
    type: 'invitation.revoked',
    subject: { type: 'invitation', id: row.id },
    data: {
      contractorId: row.contractor_id,
      email: row.email,
      revokedAt: Math.floor(now.getTime() / 1000),
    },
  });
  return true;
}

/**
 * An email change revokes the contractor's open invitation: its link went to an address the
 * organization has just said is not the contractor's. Runs in the change's transaction, which
 * holds the contractor row, so no accept can slip in between. An expired one is left as it is.
 */
export async function revokeOpenInvitationOf(ctx: UnitOfWork, contractorId: string): Promise<void> {
  const now = ctx.clock.now();
  const open = await ctx.db
    .selectFrom('contractor_invitations')
    .select(['id', 'contractor_id', 'email', 'revision'])
    .where('organization_id', '=', ctx.organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'open')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (open) await markRevoked(ctx, open, now);
}
