import { Type } from 'typebox';
import { changeMember } from '../../admin/members.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Member, toMember } from './schema.ts';

/**
 * Dashboard only (decisions 155, 200, 440): an admin who reinstates a member is looking at them
 * on the members page; over the API a suspension could be lifted by any admin key without a
 * person deciding. The CLI's `members set-status --status active` runs the same domain function.
 */
export const reinstateOrganizationMember = defineOperation({
  name: 'admin.members.reinstate',
  summary: 'Reinstate a suspended member (dashboard only)',
  description:
    'Only a suspended member (409 invalid_state otherwise; removed is final). The member may sign in again; no API key comes back (keys ended with the suspension, new ones are created anew) and sign-in links mailed before the suspension stay void. Available only from the dashboard.',
  access: {
    scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
    roles: 'dashboard',
    dashboardRoles: ['admin'],
  },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Member id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Member,
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 2 },
  async run({ ctx, input }) {
    return toMember(await changeMember(ctx, input.id, input.expectedRevision, { status: 'active' }));
  },
});
