import { Type } from 'typebox';
import { asBool } from '../../db/values.ts';
import { defineOperation } from '../define.ts';

export const MatchingSettings = Type.Object(
  {
    auto_match: Type.Boolean({
      description:
        'Attach a receipt without review when amount (to the minor unit, same currency) and card last four agree exactly and the match is clearly ahead of any other. Off by default.',
    }),
    revision: Type.Integer({
      minimum: 1,
      description: 'Send it as expectedRevision to change the settings.',
    }),
  },
  { title: 'MatchingSettings', additionalProperties: false },
);

export const getMatchingSettings = defineOperation({
  name: 'matching.settings.get',
  summary: 'Receipt matching settings of the organization',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({}, { additionalProperties: false }),
  output: MatchingSettings,
  example: {},
  async run({ ctx }) {
    const row = await ctx.db
      .selectFrom('matching_settings')
      .select(['auto_match', 'revision'])
      .where('organization_id', '=', ctx.organizationId)
      .executeTakeFirst();
    return row
      ? { auto_match: asBool(row.auto_match), revision: row.revision }
      : { auto_match: false, revision: 1 };
  },
});
