import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { MatchSuggestion } from './schema.ts';
import { toSuggestion } from './store.ts';

export const listSuggestions = defineOperation({
  name: 'matching.suggestions.list',
  summary: 'List receipt/transaction match suggestions, best first',
  description:
    'Suggestions are made both ways: when a receipt is read (open transactions for it) and when a transaction arrives (waiting receipts for it). Ordered by score (highest first), then id. Filter by receipt or transaction to see the candidates of one record; `state` defaults to open.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      receiptId: Type.Optional(Id('Only suggestions for this receipt.')),
      transactionId: Type.Optional(Id('Only suggestions for this transaction.')),
      state: Type.Optional(
        Type.Union([Type.Literal('open'), Type.Literal('confirmed'), Type.Literal('declined')], {
          description: 'open (default), confirmed or declined.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(MatchSuggestion, 'The page of suggestions, highest score first, then by id.'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('match_suggestions')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('state', '=', input.state ?? 'open');
    if (input.receiptId) query = query.where('receipt_id', '=', input.receiptId);
    if (input.transactionId) query = query.where('transaction_id', '=', input.transactionId);
    const rows = await query
      .orderBy('score', 'desc')
      .orderBy('id')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const page = offsetPage(rows, limit, offset);
    return { ...page, items: page.items.map(toSuggestion) };
  },
});
