import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Invitation, toInvitation } from './schema.ts';
import { findContractor, selectInvitations } from './store.ts';

export const listInvitations = defineOperation({
  name: 'contractors.invitations.list',
  summary: "List a contractor's portal invitations, newest first",
  description:
    'Every invitation sent to the contractor with its email, expiry and status (open, accepted, revoked, replaced, expired). Offset pagination. Unknown contractor: 404.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      contractorId: Id('Contractor whose invitations to list.'),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Invitation, "The page of the contractor's invitations, newest first."),
  example: { contractorId: '01900000-0000-7000-8000-000000000001', limit: 30, offset: 0 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const now = ctx.clock.now();
    await findContractor(ctx.db, ctx.organizationId, input.contractorId, 'contractorId');
    const rows = await selectInvitations(ctx.db, ctx.organizationId)
      .where('contractor_id', '=', input.contractorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(
      rows.map((row) => toInvitation(row, now)),
      limit,
      offset,
    );
  },
});
