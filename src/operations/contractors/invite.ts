import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import type { Database } from '../../db/schema.ts';
import { asBool, asIso } from '../../db/values.ts';
import { issueInvitation } from '../../invitations/issue.ts';
import { INVITATIONS_PER_WINDOW, invitationRetryAfterSeconds, windowStart } from '../../invitations/rules.ts';
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

    const row = await issueInvitation(ctx, contractor, {
      now,
      createdBy: ctx.principal.memberId,
      publicUrl: ctx.services.config.publicUrl,
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
