import { AppError } from '../../contract/errors.ts';
import { defineOperation } from '../define.ts';
import { MatchSuggestion, SuggestionDecision } from './schema.ts';
import { loadSuggestion, requireSuggestion, toSuggestion } from './store.ts';

export const declineSuggestion = defineOperation({
  name: 'matching.suggestions.decline',
  summary: 'Decline a suggestion (the pair is not suggested again unless the decline is undone)',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: SuggestionDecision,
  output: MatchSuggestion,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await requireSuggestion(ctx.db, ctx.organizationId, input.id, input.expectedRevision);
    if (row.state !== 'open') {
      throw new AppError(
        'invalid_state',
        `The suggestion is ${row.state}; only an open one can be declined.`,
        {
          details: { state: row.state },
        },
      );
    }
    const now = ctx.clock.now().toISOString();
    const actor = `member:${ctx.principal.memberId}`;
    await ctx.db
      .updateTable('match_suggestions')
      .set({
        state: 'declined',
        decided_by: actor,
        decided_at: now,
        revision: row.revision + 1,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .where('revision', '=', row.revision)
      .execute();
    await ctx.audit({
      recordType: 'match_suggestion',
      recordId: row.id,
      beforeRevision: row.revision,
      afterRevision: row.revision + 1,
    });
    return toSuggestion(await loadSuggestion(ctx.db, row.id));
  },
});
