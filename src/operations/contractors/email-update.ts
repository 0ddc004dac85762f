import { Type } from 'typebox';
import { Email, Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { revokeOpenInvitationOf } from '../../invitations/revocation.ts';
import { loadForChange } from '../../unit/revision.ts';
import { defineOperation } from '../define.ts';
import { Contractor, toContractor } from './schema.ts';
import { applyChange, reloadContractor, requireContractor, withUniqueEmail } from './store.ts';

export const updateContractorEmail = defineOperation({
  name: 'contractors.email.update',
  summary: "Change a contractor's email",
  description:
    'Sets a new email, unique within the organization (compared case-insensitively). Sending the current email unchanged returns the contractor as it is (same revision, no event); a change of letter case only is a change. A change revokes the open portal invitation, whose link went to the old address (event `invitation.revoked`); invite again to reach the new one.',
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
    const normalized = input.email.toLowerCase();
    await withUniqueEmail(ctx, normalized, row.id, () =>
      applyChange(ctx, row, { email: input.email, email_normalized: normalized }),
    );
    await revokeOpenInvitationOf(ctx, row.id);
    await ctx.emit({
      type: 'contractor.email_changed',
      subject: { type: 'contractor', id: row.id },
      data: { email: input.email, previousEmail: row.email },
    });
    return toContractor(await reloadContractor(ctx, row.id));
  },
});
