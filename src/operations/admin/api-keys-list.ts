import { Type } from 'typebox';
import { listApiKeys } from '../../admin/api-keys.ts';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { ApiKey, toApiKey } from './schema.ts';

export const listOrganizationApiKeys = defineOperation({
  name: 'admin.apiKeys.list',
  summary: "List the organization's API keys, newest first",
  description:
    'Scopes, creator, creation, last use (to the minute), expiry and status of every key, revoked and expired ones included. Never the key itself.',
  access: { scopes: ['accounting:read', 'accounting:admin'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      memberId: Type.Optional(Id('Only keys created by this member.')),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(ApiKey, 'The page of API keys, newest first.'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await listApiKeys(ctx.db, ctx.organizationId, {
      limit: limit + 1,
      offset,
      memberId: input.memberId,
    });
    const now = ctx.clock.now();
    return offsetPage(
      rows.map((row) => toApiKey(row, now)),
      limit,
      offset,
    );
  },
});
