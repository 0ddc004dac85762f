import { Type } from 'typebox';
import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { asIso } from '../../db/values.ts';
import { markRevoked } from '../../invitations/revocation.ts';
import { invitationStatus } from '../../invitations/rules.ts';
import { defineOperation } from '../define.ts';
import { Invitation, toInvitation } from './schema.ts';
import { selectInvitations } from './store.ts';

export const revokeInvitation = defineOperation({
  name: 'contractors.invitations.revoke',
  summary: 'Revoke an open portal invitation',
  description:
    'Its link stops working at once. Only an open invitation can be revoked (409 `invitation_not_open` otherwise, with `status`). Cannot be undone; send a new invitation instead.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('Invitation id.'),
      expectedRevision: Revision('The invitation revision the caller last read.'),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Invitation,
  example: { id: '01900000-0000-7000-8000-000000000002', expectedRevision: 1, idempotencyKey: 'revoke-0001' },
  async run({ ctx, input }) {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const row = await selectInvitations(ctx.db, ctx.organizationId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Invitation', 'id');
    if (row.revision !== input.expectedRevision) throw revisionConflict(row.revision);
    const status = invitationStatus({ status: row.status, expires_at: asIso(row.expires_at) }, now);
    if (status !== 'open') {
      throw new AppError('invitation_not_open', `The invitation is ${status}, not open.`, {
        field: 'id',
        details: { status },
      });
    }
    // Still open and still at this revision: an accept racing this revoke leaves one winner.
    if (!(await markRevoked(ctx, row, now))) {
      const current = await selectInvitations(ctx.db, ctx.organizationId)
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      throw revisionConflict(current.revision);
    }
    return toInvitation(
      { ...row, status: 'revoked', revoked_at: nowIso, revision: row.revision + 1, updated_at: nowIso },
      now,
    );
  },
});
