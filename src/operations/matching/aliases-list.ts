import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { asIso } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

const MerchantAlias = Type.Object(
  {
    pattern: Type.String({
      description: 'The bank descriptor, normalized (processor prefixes and noise removed).',
    }),
    merchant: Type.String({ description: 'The merchant it stands for.' }),
    source: Type.String({ description: 'How it was learned: confirmed, manual or consolidation.' }),
    created_at: Type.String({ format: 'date-time', description: 'When it was learned.' }),
  },
  { title: 'MerchantAlias', additionalProperties: false },
);

export const listAliases = defineOperation({
  name: 'matching.aliases.list',
  summary: 'Merchant aliases learned from confirmed matches',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    { limit: Type.Optional(Limit), offset: Type.Optional(Offset) },
    { additionalProperties: false },
  ),
  output: OffsetPage(MerchantAlias, 'The page of aliases, by pattern.'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await ctx.db
      .selectFrom('merchant_aliases')
      .select(['pattern', 'merchant', 'source', 'created_at'])
      .where('organization_id', '=', ctx.organizationId)
      .orderBy('pattern')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const page = offsetPage(rows, limit, offset);
    return { ...page, items: page.items.map((r) => ({ ...r, created_at: asIso(r.created_at) })) };
  },
});
