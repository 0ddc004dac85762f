import { AppError } from '../contract/errors.ts';
import { asIso } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import { InvalidMailMessageError } from '../mail/message.ts';
import { contractorInvitation } from '../mail/templates/index.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { invitationUrl } from './link.ts';
import { invitationExpiry, invitationStatus } from './rules.ts';
import { invitationSecret, invitationToken, tokenHash } from './token.ts';

/** What an invitation needs of its contractor (the address it goes to is the contractor's now). */
export interface InvitedContractor {
  id: string;
  email: string;
  display_name: string;
}

/**
 * Closes the open invitation, stores a new one for the contractor's current address, records
 * `invitation.sent` and queues the mail, all in the caller's unit (contractors.invite, and an
 * email change of a joined contractor, decision 412). The caller has checked everything else.
 */
export async function issueInvitation(
  ctx: UnitOfWork,
  contractor: InvitedContractor,
  options: { now: Date; createdBy: string; publicUrl: string },
) {
  const { now } = options;
  const nowIso = now.toISOString();
  const replacedId = await closeOpenInvitation(ctx, contractor.id, now);
  const id = newId();
  const token = invitationToken(await invitationSecret(ctx.db, now), id);
  const row = {
    id,
    organization_id: ctx.organizationId,
    contractor_id: contractor.id,
    email: contractor.email,
    token_hash: tokenHash(token),
    status: 'open',
    expires_at: invitationExpiry(now).toISOString(),
    accepted_at: null,
    revoked_at: null,
    replaced_at: null,
    created_by: options.createdBy,
    revision: 1,
    created_at: nowIso,
    updated_at: nowIso,
  };
  await ctx.db.insertInto('contractor_invitations').values(row).execute();
  await ctx.audit({ recordType: 'invitation', recordId: id, beforeRevision: null, afterRevision: 1 });
  await ctx.emit({
    type: 'invitation.sent',
    subject: { type: 'invitation', id },
    data: {
      contractorId: contractor.id,
      email: contractor.email,
      expiresAt: Math.floor(new Date(row.expires_at).getTime() / 1000),
      replacedInvitationId: replacedId,
    },
  });
  await mailInvitation(ctx, {
    email: contractor.email,
    contractorName: contractor.display_name,
    link: invitationUrl(options.publicUrl, token),
    expiresAt: row.expires_at,
  });
  return row;
}

/**
 * The open invitation (at most one: a partial unique index) stops working. One still in its
 * 7 days becomes 'replaced'; one already past them is recorded as 'expired', which it was.
 */
async function closeOpenInvitation(ctx: UnitOfWork, contractorId: string, now: Date) {
  const open = await ctx.db
    .selectFrom('contractor_invitations')
    .select(['id', 'status', 'expires_at', 'revision'])
    .where('organization_id', '=', ctx.organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (!open) return null;
  const expired =
    invitationStatus({ status: open.status, expires_at: asIso(open.expires_at) }, now) === 'expired';
  await ctx.db
    .updateTable('contractor_invitations')
    .set({
      status: expired ? 'expired' : 'replaced',
      replaced_at: expired ? null : now.toISOString(),
      revision: open.revision + 1,
      updated_at: now.toISOString(),
    })
    .where('id', '=', open.id)
    .where('organization_id', '=', ctx.organizationId)
    .execute();
  await ctx.audit({
    recordType: 'invitation',
    recordId: open.id,
    beforeRevision: open.revision,
    afterRevision: open.revision + 1,
  });
  return expired ? null : open.id;
}

async function mailInvitation(
  ctx: UnitOfWork,
  invite: { email: string; contractorName: string; link: string; expiresAt: string },
) {
  const organization = await ctx.db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', ctx.organizationId)
    .executeTakeFirstOrThrow();
  const mail = contractorInvitation({
    organizationName: organization.name,
    contractorName: invite.contractorName,
    link: invite.link,
    expiresAt: invite.expiresAt,
  });
  try {
    await ctx.sendMail({ to: [invite.email], ...mail });
  } catch (error) {
    // An address the contract's email format allows but SMTP cannot take: refuse, change nothing.
    if (error instanceof InvalidMailMessageError) {
      throw new AppError('invalid_state', "The contractor's email address cannot receive mail.", {
        field: 'id',
        details: { state: 'email_undeliverable' },
      });
    }
    throw error;
  }
}
