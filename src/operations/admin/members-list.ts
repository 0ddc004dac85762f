import { Type } from 'typebox';
import { listMembers } from '../../admin/members.ts';
import { Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Member, RoleInput, toMember } from './schema.ts';

export const listOrganizationMembers = defineOperation({
  name: 'admin.members.list',
  summary: "List the organization's members, newest first",
  description: 'Offset pagination; every status is listed unless `status` narrows it.',
  access: { scopes: ['accounting:read', 'accounting:admin'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      status: Type.Optional(
        Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('removed')], {
          description: 'Only members in this status.',
        }),
      ),
      role: Type.Optional(RoleInput),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Member, 'The page of members, newest first.'),
  example: { limit: 30, status: 'active' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await listMembers(ctx.db, ctx.organizationId, {
      limit: limit + 1,
      offset,
      status: input.status,
      role: input.role,
    });
    return offsetPage(rows.map(toMember), limit, offset);
  },
});
