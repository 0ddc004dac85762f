import { AppError } from '../../contract/errors.ts';
import { attachReceipt } from '../../receipts/processing/attach.ts';
import { defineOperation } from '../define.ts';
import { MatchResult, SuggestionDecision } from './schema.ts';
import { requireSuggestion } from './store.ts';

export const confirmSuggestion = defineOperation({
  name: 'matching.suggestions.confirm',
  summary: 'Confirm a suggestion: attach the receipt to the transaction',
  description:
    'The receipt attaches to the transaction’s entry; the transaction becomes matched and leaves attention.mine; the receipt becomes matched. Other open suggestions of either record are withdrawn, and the bank descriptor is learned as an alias of the receipt’s merchant.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: SuggestionDecision,
  output: MatchResult,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await requireSuggestion(ctx.db, ctx.organizationId, input.id, input.expectedRevision);
    if (row.state !== 'open') {
      throw new AppError(
        'invalid_state',
        `The suggestion is ${row.state}; only an open one can be confirmed.`,
        {
          details: { state: row.state },
        },
      );
    }
    await ctx.db
      .updateTable('match_suggestions')
      .set({ revision: row.revision + 1 })
      .where('id', '=', row.id)
      .where('revision', '=', row.revision)
      .execute();
    const done = await attachReceipt(
      ctx,
      { receiptId: row.receipt_id, transactionId: row.transaction_id },
      'confirmed',
    );
    return {
      receipt_id: row.receipt_id,
      transaction_id: row.transaction_id,
      entry_id: done.entryId,
      receipt_revision: done.receiptRevision,
      transaction_revision: done.transactionRevision,
    };
  },
});
