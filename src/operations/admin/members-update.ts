import { Type } from 'typebox';
import { changeMember } from '../../admin/members.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Member, RoleInput, toMember } from './schema.ts';

export const updateOrganizationMember = defineOperation({
  name: 'admin.members.update',
  summary: "Change a member's role",
  description:
    'The last active admin cannot be demoted (409 last_admin). A removed member cannot be changed (409 invalid_state).',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Member id.'),
      expectedRevision: Revision(),
      role: RoleInput,
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Member,
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 1, role: 'finance' },
  async run({ ctx, input }) {
    return toMember(await changeMember(ctx, input.id, input.expectedRevision, { role: input.role }));
  },
});
