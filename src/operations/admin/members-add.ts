import { Type } from 'typebox';
import { addMemberByEmail } from '../../admin/members.ts';
import { Email, IdempotencyKey, SingleLineText } from '../../contract/formats.ts';
import { memberAdded } from '../../mail/templates/index.ts';
import { defineOperation } from '../define.ts';
import { Member, RoleInput, toMember } from './schema.ts';

export const addOrganizationMember = defineOperation({
  name: 'admin.members.add',
  summary: 'Add a member by email',
  description:
    'The member is active at once and can be given API keys (by themselves) or an OAuth identity (by an operator). The new member is mailed where to sign in to the dashboard (the sign-in page, never a token), in the same unit as the change. An email already in the organization, in any status, is refused with member_email_taken.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      email: Email('Email address of the new member; compared case-insensitively.'),
      role: RoleInput,
      name: Type.Optional(SingleLineText(1, 200, 'Display name, 1-200 characters on one line.')),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Member,
  example: { email: 'grace@example.com', role: 'finance', name: 'Grace Hopper' },
  async run({ ctx, input }) {
    const member = await addMemberByEmail(ctx, input);
    // Decision 460: the mail goes with the change or not at all, to the address just added.
    const organization = await ctx.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', ctx.organizationId)
      .executeTakeFirstOrThrow();
    const mail = memberAdded({
      organizationName: organization.name,
      memberName: member.name,
      roleLabel: member.role === 'admin' ? 'Admin' : 'Finance',
      signInLink: `${ctx.services.config.publicUrl.replace(/\/+$/, '')}/dashboard/sign-in`,
    });
    await ctx.sendMail({ to: [member.email], ...mail });
    return toMember(member);
  },
});
