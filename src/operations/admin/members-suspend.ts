import { Type } from 'typebox';
import { changeMember } from '../../admin/members.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Member, toMember } from './schema.ts';

export const suspendOrganizationMember = defineOperation({
  name: 'admin.members.suspend',
  summary: 'Suspend a member',
  description:
    "The member's API keys are revoked and their OAuth tokens refused at once, in the same transaction. The last active admin cannot be suspended (409 last_admin). An admin reinstates the member from the dashboard (admin.members.reinstate, dashboard only) or an operator with accounting members set-status; no key comes back.",
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
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
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 1 },
  async run({ ctx, input }) {
    return toMember(await changeMember(ctx, input.id, input.expectedRevision, { status: 'suspended' }));
  },
});
