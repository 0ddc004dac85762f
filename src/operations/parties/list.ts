import { sql } from 'kysely';
import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { toParty } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { Party, toPartyRecord } from './schema.ts';

/** `%text%` for LIKE, with the wildcards of the search text escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const listParties = defineOperation({
  name: 'parties.list',
  summary: 'List parties, newest first',
  description: 'Offset pagination. `search` filters by name or email (case-insensitive substring).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Filter on name or email, up to 200 characters.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Party, 'The page of parties, newest first (by creation).'),
  example: { limit: 30, search: 'northwind' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('parties as p')
      .selectAll('p')
      .where('p.organization_id', '=', ctx.organizationId);
    if (input.search) {
      const pattern = likePattern(input.search);
      // Explicit ESCAPE: SQLite has no default escape character, PostgreSQL uses backslash.
      query = query.where(
        sql<boolean>`(lower(p.name) like ${pattern} escape '\\' or coalesce(p.email_normalized, '') like ${pattern} escape '\\')`,
      );
    }
    const rows = await query
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(
      rows.map((row) => toPartyRecord(toParty(row))),
      limit,
      offset,
    );
  },
});
