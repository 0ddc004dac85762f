import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { asIso } from '../../db/values.ts';
import { invitationUrl } from '../../invitations/link.ts';
import { invitationStatus } from '../../invitations/rules.ts';
import { invitationSecret, invitationToken } from '../../invitations/token.ts';
import { defineOperation } from '../define.ts';
import { findContractor, selectInvitations } from './store.ts';

export const InvitationLink = Type.Object(
  {
    url: Type.String({ description: 'The portal link; whoever has it can accept the invitation.' }),
    expires_at: Type.String({ format: 'date-time', description: 'When the link stops working.' }),
    invitation_id: Id('The open invitation the link belongs to.'),
  },
  { title: 'InvitationLink', additionalProperties: false },
);

export const invitationLink = defineOperation({
  name: 'contractors.invitations.link',
  summary: "The shareable link of a contractor's open invitation",
  description:
    'Returns the same link the invitation email carried, for sharing another way. Needs accounting:write as well as read: the link is a credential that joins the portal as the contractor. Unknown contractor: 404; no open invitation: 404 `no_open_invitation` (send one with contractors.invite).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  input: Type.Object(
    { contractorId: Id('Contractor whose open invitation link to return.') },
    { additionalProperties: false },
  ),
  output: InvitationLink,
  example: { contractorId: '01900000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    const now = ctx.clock.now();
    await findContractor(ctx.db, ctx.organizationId, input.contractorId, 'contractorId');
    const latest = await selectInvitations(ctx.db, ctx.organizationId)
      .where('contractor_id', '=', input.contractorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const status = latest
      ? invitationStatus({ status: latest.status, expires_at: asIso(latest.expires_at) }, now)
      : null;
    if (!latest || status !== 'open') {
      throw new AppError('no_open_invitation', 'The contractor has no open invitation.', {
        field: 'contractorId',
        details: { latest_status: status },
      });
    }
    const token = invitationToken(await invitationSecret(ctx.db, now), latest.id);
    return {
      url: invitationUrl(ctx.services.config.publicUrl, token),
      expires_at: asIso(latest.expires_at),
      invitation_id: latest.id,
    };
  },
});
