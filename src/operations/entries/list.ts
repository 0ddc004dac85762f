import { sql } from 'kysely';
import { Type } from 'typebox';
import { likePattern } from '../../books/wire.ts';
import { DateString, Limit, Offset } from '../../contract/formats.ts';
import { refuseReversedDates } from '../date-range.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Entry } from './schema.ts';
import { toEntries } from './store.ts';

export const listEntries = defineOperation({
  name: 'entries.list',
  summary: 'List ledger entries, newest first',
  description:
    'Offset pagination (`limit`, `offset`), ordered by date (newest first), then id. `from` and `to` are inclusive dates; `status` is the review status; `search` looks in the description and the counterparty.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      from: Type.Optional(DateString('First date included.')),
      to: Type.Optional(DateString('Last date included.')),
      status: Type.Optional(
        Type.Union([Type.Literal('unreviewed'), Type.Literal('reviewed')], {
          description: 'Only entries with this review status: unreviewed or reviewed.',
        }),
      ),
      search: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Text to look for, up to 200 characters.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Entry, 'The page of entries, newest date first, then by id.'),
  example: { limit: 30, from: '2026-01-01', to: '2026-01-31' },
  async run({ ctx, input }) {
    refuseReversedDates(input.from, input.to);
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('ledger_entries as e')
      .selectAll('e')
      .where('e.organization_id', '=', ctx.organizationId);
    if (input.from) query = query.where('e.entry_date', '>=', input.from);
    if (input.to) query = query.where('e.entry_date', '<=', input.to);
    if (input.status) query = query.where('e.review_status', '=', input.status);
    if (input.search) {
      const pattern = likePattern(input.search);
      query = query.where(
        sql<boolean>`(lower(e.description) like ${pattern} escape '\\' or lower(coalesce(e.counterparty, '')) like ${pattern} escape '\\')`,
      );
    }
    const rows = await query
      .orderBy('e.entry_date', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const page = offsetPage(rows, limit, offset);
    return { ...page, items: await toEntries(ctx.db, page.items) };
  },
});
