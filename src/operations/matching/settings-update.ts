import { Type } from 'typebox';
import { revisionConflict } from '../../contract/errors.ts';
import { IdempotencyKey, Revision } from '../../contract/formats.ts';
import { dbBool } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { MatchingSettings } from './settings-get.ts';

export const updateMatchingSettings = defineOperation({
  name: 'matching.settings.update',
  summary: 'Turn receipt auto-matching on or off',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      autoMatch: Type.Boolean({ description: 'true turns auto-matching on (exact amount and card only).' }),
      expectedRevision: Revision('The revision of the settings last read (1 before any change).'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MatchingSettings,
  example: { autoMatch: false, expectedRevision: 1 },
  async run({ ctx, input }) {
    const now = ctx.clock.now().toISOString();
    const row = await ctx.db
      .selectFrom('matching_settings')
      .select('revision')
      .where('organization_id', '=', ctx.organizationId)
      .executeTakeFirst();
    const current = row?.revision ?? 1;
    if (current !== input.expectedRevision) throw revisionConflict(current);
    if (row) {
      const updated = await ctx.db
        .updateTable('matching_settings')
        .set({ auto_match: dbBool(input.autoMatch), revision: current + 1, updated_at: now })
        .where('organization_id', '=', ctx.organizationId)
        .where('revision', '=', current)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw revisionConflict(current + 1);
    } else {
      await ctx.db
        .insertInto('matching_settings')
        .values({
          organization_id: ctx.organizationId,
          auto_match: dbBool(input.autoMatch),
          revision: 2,
          updated_at: now,
        })
        .execute();
    }
    await ctx.audit({
      recordType: 'matching_settings',
      recordId: ctx.organizationId,
      beforeRevision: current,
      afterRevision: current + 1,
    });
    return { auto_match: input.autoMatch, revision: current + 1 };
  },
});
