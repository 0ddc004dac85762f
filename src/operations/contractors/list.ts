import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { type NameFilter, NameQuery, nameFilter } from '../../contractors/name-search.ts';
import type { Database } from '../../db/schema.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Contractor, toContractor } from './schema.ts';
import { contractorPageIds, selectContractors } from './store.ts';

export const listContractors = defineOperation({
  name: 'contractors.list',
  summary: 'List contractors, newest first',
  description:
    'Offset pagination. `query` filters by display or legal name (case-insensitive substring; one or two characters look at the 2,000 newest contractors, three or more at all). Roles, rates, pay cadence, agreement on file and pending hours come from contractorOps.directory.list.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      query: Type.Optional(NameQuery),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Contractor, 'The page of contractors, newest first (by creation).'),
  example: { limit: 30, offset: 0, query: 'ada' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const search = input.query ? await nameFilter(ctx.db, input.query, ctx.dialect) : undefined;
    const rows = await contractorsPage(ctx.db, ctx.organizationId, ctx.clock.now(), {
      limit: limit + 1,
      offset,
      search,
    }).execute();
    return offsetPage(rows.map(toContractor), limit, offset);
  },
});

/**
 * The one statement of a contractors.list page (also what bench/contractors-api.ts runs as its
 * bare route): the page's ids from the index (`contractorPageIds`), then the columns and the
 * per-row invitation subquery for those rows only.
 */
export function contractorsPage(
  db: Kysely<Database>,
  organizationId: string,
  now: Date,
  page: { limit: number; offset: number; search?: NameFilter | undefined },
) {
  const { limit, offset, search } = page;
  const filters = search ? [search.where] : [];
  return selectContractors(db, organizationId, now)
    .where(
      'c.id',
      'in',
      contractorPageIds(db, organizationId, { limit, offset, filters, newest: search?.newest }),
    )
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc');
}
