import { AppError } from '../../contract/errors.ts';
import { ATTACHABLE } from '../../receipts/processing/attach.ts';
import { defineOperation } from '../define.ts';
import { MatchSuggestion, SuggestionDecision } from './schema.ts';
import { loadSuggestion, requireSuggestion, toSuggestion } from './store.ts';

// The undo of matching.suggestions.decline (decision 391): a declined pair becomes open again as
// long as both records could still be matched to each other; otherwise the suggestion would be
// offered for a pair that confirm must refuse.
export const reopenSuggestion = defineOperation({
  name: 'matching.suggestions.reopen',
  summary: 'Undo a decline: the suggestion is open again',
  description:
    'Only a declined suggestion whose receipt is still waiting (ready or needs_review, no transaction) and whose transaction is still unmatched can be reopened; the pair may then be suggested again.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: SuggestionDecision,
  output: MatchSuggestion,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 2 },
  async run({ ctx, input }) {
    const row = await requireSuggestion(ctx.db, ctx.organizationId, input.id, input.expectedRevision);
    if (row.state !== 'declined') {
      throw new AppError(
        'invalid_state',
        `The suggestion is ${row.state}; only a declined one can be reopened.`,
        { details: { state: row.state } },
      );
    }
    const receipt = await ctx.db
      .selectFrom('receipts')
      .select(['state', 'transaction_id'])
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', row.receipt_id)
      .executeTakeFirstOrThrow();
    if (!ATTACHABLE.includes(receipt.state) || receipt.transaction_id !== null) {
      throw new AppError(
        'invalid_state',
        `The receipt is ${receipt.state} now; a suggestion can be reopened only while its receipt is ready or needs_review and unmatched.`,
        { details: { receiptState: receipt.state } },
      );
    }
    const tx = await ctx.db
      .selectFrom('bank_transactions')
      .select(['status', 'receipt_id'])
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', row.transaction_id)
      .executeTakeFirstOrThrow();
    if (tx.status !== 'unmatched' || tx.receipt_id !== null) {
      throw new AppError(
        'invalid_state',
        `The transaction is ${tx.status} now; a suggestion can be reopened only while its transaction is unmatched.`,
        { details: { transactionState: tx.status } },
      );
    }
    const now = ctx.clock.now().toISOString();
    await ctx.db
      .updateTable('match_suggestions')
      .set({ state: 'open', decided_by: null, decided_at: null, revision: row.revision + 1, updated_at: now })
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
