import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Card } from './schema.ts';
import { toCard } from './store.ts';

export const listCards = defineOperation({
  name: 'cards.list',
  summary: 'List payment cards, newest first',
  description:
    'Offset pagination; filters by account and holder. Archived cards are left out unless asked for.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      accountId: Type.Optional(Id('Only cards of this account.')),
      holderMemberId: Type.Optional(Id('Only cards held by this member.')),
      includeArchived: Type.Optional(Type.Boolean({ description: 'Also list archived cards.' })),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Card, 'The page of cards, newest first (by creation).'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('books_cards')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId);
    if (input.accountId) query = query.where('account_id', '=', input.accountId);
    if (input.holderMemberId) query = query.where('holder_member_id', '=', input.holderMemberId);
    if (input.includeArchived !== true) query = query.where('archived_at', 'is', null);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toCard), limit, offset);
  },
});
