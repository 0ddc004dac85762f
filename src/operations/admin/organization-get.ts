import { Type } from 'typebox';
import { requireOrganization } from '../../admin/organization-settings.ts';
import { defineOperation } from '../define.ts';
import { Organization, toOrganization } from './schema.ts';

export const getOrganization = defineOperation({
  name: 'admin.organization.get',
  summary: "Read the caller's organization settings",
  description: 'Name, legal name, address, time zone, default currency and invoice number prefix.',
  access: { scopes: ['accounting:read', 'accounting:admin'], roles: ['admin'] },
  input: Type.Object({}, { additionalProperties: false }),
  output: Organization,
  example: {},
  async run({ ctx }) {
    return toOrganization(await requireOrganization(ctx.db, ctx.organizationId));
  },
});
