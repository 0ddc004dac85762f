import { sql } from 'kysely';
import { Type } from 'typebox';
import { likePattern } from '../../books/wire.ts';
import { DateString, Id, Limit, Offset } from '../../contract/formats.ts';
import { refuseReversedDates } from '../date-range.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Transaction, TransactionSort } from './schema.ts';
import { orderTransactions, toTransaction } from './store.ts';

export const listTransactions = defineOperation({
  name: 'transactions.list',
  summary: 'List bank and card transactions, newest booked date first',
  description:
    'Offset pagination, ordered by booked date (newest first), then id, unless `sort` says otherwise. `from` and `to` are inclusive booked dates; `search` looks in the bank’s description, the cleaned merchant and the counterparty name.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      accountId: Type.Optional(Id('Only transactions of this account.')),
      cardId: Type.Optional(Id('Only transactions of this card.')),
      from: Type.Optional(DateString('First booked date included.')),
      to: Type.Optional(DateString('Last booked date included.')),
      status: Type.Optional(
        Type.Union([Type.Literal('unmatched'), Type.Literal('matched'), Type.Literal('excluded')], {
          description: 'Only transactions in this status: unmatched, matched or excluded.',
        }),
      ),
      search: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Text to look for, up to 200 characters.' }),
      ),
      sort: Type.Optional(TransactionSort),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(
    Transaction,
    'The page of transactions in the order `sort` names (newest booked date first by default).',
  ),
  example: { limit: 30, from: '2026-01-01', to: '2026-01-31' },
  async run({ ctx, input }) {
    refuseReversedDates(input.from, input.to);
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('bank_transactions as t')
      .selectAll('t')
      .where('t.organization_id', '=', ctx.organizationId);
    if (input.accountId) query = query.where('t.account_id', '=', input.accountId);
    if (input.cardId) query = query.where('t.card_id', '=', input.cardId);
    if (input.from) query = query.where('t.booked_date', '>=', input.from);
    if (input.to) query = query.where('t.booked_date', '<=', input.to);
    if (input.status) query = query.where('t.status', '=', input.status);
    if (input.search) {
      const pattern = likePattern(input.search);
      query = query.where(
        sql<boolean>`(lower(t.description) like ${pattern} escape '\\' or lower(t.merchant) like ${pattern} escape '\\' or lower(coalesce(t.counterparty_name, '')) like ${pattern} escape '\\')`,
      );
    }
    const rows = await orderTransactions(query, input.sort ?? 'date_desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toTransaction), limit, offset);
  },
});
