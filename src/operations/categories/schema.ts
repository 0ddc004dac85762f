import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { NullableString, RevisionField } from '../../books/wire.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { BooksCategoriesTable } from '../../db/tables/books.ts';
import { asBool, asIso } from '../../db/values.ts';

export const CategoryKind = Type.Union(
  [
    Type.Literal('income'),
    Type.Literal('expense'),
    Type.Literal('asset'),
    Type.Literal('liability'),
    Type.Literal('equity'),
  ],
  { description: 'income, expense, asset, liability or equity.' },
);

/** A category of the chart, as returned on the wire. */
export const Category = Type.Object(
  {
    id: Id('Category id.'),
    code: Type.String({ description: 'Code in the chart (stable; used by exports).' }),
    name: Type.String({ description: 'Name shown to people.' }),
    kind: CategoryKind,
    default_tax_rate: NullableString('Tax rate suggested for its allocations (percent), or null.'),
    active: Type.Boolean({
      description: 'false once deactivated: kept on old entries, not offered for new ones.',
    }),
    revision: RevisionField,
    created_at: Timestamp('When the category was added (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Category', additionalProperties: false },
);
export type Category = Static<typeof Category>;

export function toCategory(row: Selectable<BooksCategoriesTable>): Category {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind as Category['kind'],
    default_tax_rate: row.default_tax_rate,
    active: asBool(row.active),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
