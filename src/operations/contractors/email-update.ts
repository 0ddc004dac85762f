import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Email, Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { issueInvitation } from '../../invitations/issue.ts';
import { revokeOpenInvitationOf } from '../../invitations/revocation.ts';
import { InvalidMailMessageError } from '../../mail/message.ts';
import { contractorEmailChanged } from '../../mail/templates/index.ts';
import { withdrawSignInLinks } from '../../sessions/sign-in-links.ts';
import { endSessionsOf } from '../../sessions/store.ts';
import { loadForChange } from '../../unit/revision.ts';
import type { OperationContext } from '../context.ts';
import { defineOperation } from '../define.ts';
import { Contractor, toContractor } from './schema.ts';
import {
  applyChange,
  type ContractorRow,
  reloadContractor,
  requireContractor,
  withUniqueEmail,
} from './store.ts';

export const updateContractorEmail = defineOperation({
  name: 'contractors.email.update',
  summary: "Change a contractor's email",
  description:
    'Sets a new email, unique within the organization (compared case-insensitively). Sending the current email unchanged returns the contractor as it is (same revision, no event); a change of letter case only is a change. A change revokes the open portal invitation, whose link went to the old address (event `invitation.revoked`); invite again to reach the new one. For a contractor who has joined the portal only the admin role may change it (403 `role_not_allowed`, field `email`): their portal sessions and sign-in links end, they are no longer joined (`joined_at` null) until they accept the invitation this sends to the new address (event `invitation.sent`), and the old address is told by mail.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required', auditOnlyOnChange: true },
  input: Type.Object(
    {
      id: Id('Contractor id.'),
      expectedRevision: Revision(),
      email: Email('New email, up to 320 characters, unique within the organization (case-insensitive).'),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Contractor,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    email: 'ada@example.com',
    idempotencyKey: 'contractor-email-0001',
  },
  async run({ ctx, input }) {
    const row = await loadForChange(requireContractor(ctx, input.id), input.expectedRevision);
    if (input.email === row.email) return toContractor(await reloadContractor(ctx, row.id));
    const joined = row.joined_at !== null;
    // The portal identity is the person behind the address: only an admin may move a joined
    // contractor to another one (decision 412); finance may still correct an unjoined record.
    if (joined && ctx.principal.role !== 'admin') {
      throw new AppError(
        'role_not_allowed',
        `The contractor has joined the portal: only the admin role may change their email (yours is ${ctx.principal.role}).`,
        { field: 'email', details: { allowed_roles: ['admin'] } },
      );
    }
    const normalized = input.email.toLowerCase();
    // A joined contractor leaves the portal until they accept an invitation at the new address.
    await withUniqueEmail(ctx, normalized, row.id, () =>
      applyChange(ctx, row, {
        email: input.email,
        email_normalized: normalized,
        ...(joined ? { joined_at: null } : {}),
      }),
    );
    await revokeOpenInvitationOf(ctx, row.id);
    await ctx.emit({
      type: 'contractor.email_changed',
      subject: { type: 'contractor', id: row.id },
      data: { email: input.email, previousEmail: row.email },
    });
    if (joined) await moveJoinedContractor(ctx, row, input.email);
    return toContractor(await reloadContractor(ctx, row.id));
  },
});

/**
 * The portal follows the person, not the field (issue 31 part 3): every portal session and unused
 * sign-in link of the contractor ends, an invitation goes to the new address (accepting it is the
 * only way back in), and the old address is told, all in the change's unit of work.
 */
async function moveJoinedContractor(ctx: OperationContext, row: ContractorRow, email: string): Promise<void> {
  const now = ctx.clock.now();
  const principal = { type: 'contractor' as const, id: row.id, organizationId: ctx.organizationId };
  await endSessionsOf(ctx, principal, 'email_changed');
  await withdrawSignInLinks(ctx.db, now, { organizationId: ctx.organizationId, principal });
  await issueInvitation(
    ctx,
    { id: row.id, email, display_name: row.display_name },
    { now, createdBy: ctx.principal.memberId, publicUrl: ctx.services.config.publicUrl },
  );
  const organization = await ctx.db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', ctx.organizationId)
    .executeTakeFirstOrThrow();
  try {
    await ctx.sendMail({
      to: [row.email],
      ...contractorEmailChanged({
        organizationName: organization.name,
        contractorName: row.display_name,
        newEmail: email,
        changedAt: now.toISOString(),
      }),
    });
  } catch (error) {
    // An old address SMTP cannot take (stored before today's format rules) must not block the move.
    if (!(error instanceof InvalidMailMessageError)) throw error;
  }
}
