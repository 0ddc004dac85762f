import { Type } from 'typebox';
import { changeMember } from '../../admin/members.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Member, toMember } from './schema.ts';

export const removeOrganizationMember = defineOperation({
  name: 'admin.members.remove',
  summary: 'Remove a member',
  description:
    "Final: the member's API keys are revoked and their OAuth tokens refused at once; the member stays listed (status removed) so audit entries keep naming them. The last active admin cannot be removed (409 last_admin).",
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
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
    return toMember(await changeMember(ctx, input.id, input.expectedRevision, { status: 'removed' }));
  },
});
