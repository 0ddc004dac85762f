import { Type } from 'typebox';
import { ensureChart } from '../../books/categories.ts';
import { Limit, Offset } from '../../contract/formats.ts';
import { dbBool } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Category, toCategory } from './schema.ts';

export const listCategories = defineOperation({
  name: 'categories.list',
  summary: 'List the chart of categories, by code',
  description:
    'Offset pagination, ordered by code. An organization starts with a default chart for a small business (docs/books.md); deactivated categories are left out unless `includeInactive` is true.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      includeInactive: Type.Optional(Type.Boolean({ description: 'Also list deactivated categories.' })),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Category, 'The page of categories, by code.'),
  example: { limit: 100 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    // A read may seed the chart: an idempotent insert of fixed rows, so GET stays safe to repeat.
    await ensureChart(ctx.db, ctx.organizationId, ctx.clock.now().toISOString());
    let query = ctx.db
      .selectFrom('books_categories')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId);
    if (input.includeInactive !== true) query = query.where('active', '=', dbBool(true));
    const rows = await query
      .orderBy('code')
      .orderBy('id')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toCategory), limit, offset);
  },
});
