import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import type { Database } from '../../db/schema.ts';
import { asBool, asIso } from '../../db/values.ts';
import { invitationUrl } from '../../invitations/link.ts';
import {
  INVITATIONS_PER_WINDOW,
  invitationExpiry,
  invitationRetryAfterSeconds,
  invitationStatus,
  windowStart,
} from '../../invitations/rules.ts';
import { invitationSecret, invitationToken, tokenHash } from '../../invitations/token.ts';
import { newId } from '../../lib/ids.ts';
import { InvalidMailMessageError } from '../../mail/message.ts';
import { contractorInvitation } from '../../mail/templates/index.ts';
import type { OperationContext } from '../context.ts';
import { defineOperation } from '../define.ts';
import { Invitation, toInvitation } from './schema.ts';
import { findContractor } from './store.ts';

export const inviteContractor = defineOperation({
  name: 'contractors.invite',
  summary: 'Email a contractor portal invitation',
  description:
    'Sends the contractor an email with a portal link valid 7 days and replaces any open invitation. At most 3 invitations per contractor in any 24 hours (429 `invitation_limit_reached` with Retry-After). Refused once the contractor has joined (409 `contractor_joined`) or while portal access (`active`) is off (409 `contractor_inactive`). Inviting adds 1 to the contractor revision. The link can be shown again with contractors.invitations.link.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Contractor id.'),
      expectedRevision: Revision('The contractor revision the caller last read (contractors.get).'),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Invitation,
  example: { id: '01900000-0000-7000-8000-000000000001', expectedRevision: 1, idempotencyKey: 'invite-0001' },
  async run({ ctx, input }) {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const contractor = await findContractor(ctx.db, ctx.organizationId, input.id, 'id');
    if (contractor.revision !== input.expectedRevision) throw revisionConflict(contractor.revision);
    if (contractor.joined_at !== null) {
      throw new AppError('contractor_joined', 'The contractor has already joined the portal.', {
        field: 'id',
      });
    }
    if (!asBool(contractor.active)) {
      throw new AppError('contractor_inactive', "The contractor's portal access is off.", { field: 'id' });
    }
    await checkLimit(ctx.db, ctx.organizationId, contractor.id, now);

    // Compare-and-set on the contractor: serializes concurrent invites (and the count above).
    const bumped = await ctx.db
      .updateTable('contractors')
      .set({ revision: input.expectedRevision + 1, updated_at: nowIso })
      .where('id', '=', contractor.id)
      .where('organization_id', '=', ctx.organizationId)
      .where('revision', '=', input.expectedRevision)
      .executeTakeFirst();
    if (Number(bumped.numUpdatedRows) !== 1) {
      const current = await findContractor(ctx.db, ctx.organizationId, contractor.id, 'id');
      throw revisionConflict(current.revision);
    }
    await ctx.audit({
      recordType: 'contractor',
      recordId: contractor.id,
      beforeRevision: input.expectedRevision,
      afterRevision: input.expectedRevision + 1,
    });

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
      created_by: ctx.principal.memberId,
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
      link: invitationUrl(ctx.services.config.publicUrl, token),
      expiresAt: row.expires_at,
    });
    return toInvitation(row, now);
  },
});

async function checkLimit(db: Kysely<Database>, organizationId: string, contractorId: string, now: Date) {
  const recent = await db
    .selectFrom('contractor_invitations')
    .select('created_at')
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .where('created_at', '>', windowStart(now).toISOString())
    .execute();
  const retryAfterSeconds = invitationRetryAfterSeconds(
    recent.map((r) => asIso(r.created_at)),
    now,
  );
  if (retryAfterSeconds !== undefined) {
    throw new AppError(
      'invitation_limit_reached',
      `At most ${INVITATIONS_PER_WINDOW} invitations per contractor in 24 hours; retry in ${retryAfterSeconds} s.`,
      { retryAfterSeconds, details: { retry_after_seconds: retryAfterSeconds } },
    );
  }
}

/**
 * The open invitation (at most one: a partial unique index) stops working. One still in its
 * 7 days becomes 'replaced'; one already past them is recorded as 'expired', which it was.
 */
async function closeOpenInvitation(ctx: OperationContext, contractorId: string, now: Date) {
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
  ctx: OperationContext,
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
