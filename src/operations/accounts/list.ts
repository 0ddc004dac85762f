import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { asBool } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Account } from './schema.ts';
import { toAccount } from './store.ts';

export const listAccounts = defineOperation({
  name: 'accounts.list',
  summary: 'List money accounts, newest first',
  description: 'Offset pagination. Archived accounts are left out unless `includeArchived` is true.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      includeArchived: Type.Optional(Type.Boolean({ description: 'Also list archived accounts.' })),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Account, 'The page of accounts, newest first (by creation).'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('books_accounts')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId);
    if (!asBool(input.includeArchived)) query = query.where('archived_at', 'is', null);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toAccount), limit, offset);
  },
});
