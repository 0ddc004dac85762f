import type { Kysely, Selectable } from 'kysely';
import { AppError, notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { BooksCardsTable } from '../../db/tables/books.ts';
import { asIso, asIsoOrNull } from '../../db/values.ts';
import { afterCompareAndSet } from '../../unit/revision.ts';
import type { Card } from './schema.ts';

export type CardRow = Selectable<BooksCardsTable>;

export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    account_id: row.account_id,
    holder_member_id: row.holder_member_id,
    last_four: row.last_four,
    brand: row.brand,
    label: row.label,
    archived_at: asIsoOrNull(row.archived_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export async function requireCard(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field = 'id',
): Promise<CardRow> {
  const row = await db
    .selectFrom('books_cards')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Card', field);
  return row;
}

/** The holder must be an active member of the organization. */
export async function assertHolder(
  db: Kysely<Database>,
  organizationId: string,
  memberId: string,
): Promise<void> {
  const member = await db
    .selectFrom('members')
    .select('status')
    .where('organization_id', '=', organizationId)
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (member?.status !== 'active') {
    throw new AppError('invalid_input', 'holderMemberId is not an active member of the organization.', {
      field: 'holderMemberId',
    });
  }
}

export async function updateCardRow(
  db: Kysely<Database>,
  current: CardRow,
  values: Partial<Omit<CardRow, 'id' | 'organization_id' | 'revision'>>,
  now: string,
): Promise<CardRow> {
  const result = await db
    .updateTable('books_cards')
    .set({ ...values, revision: current.revision + 1, updated_at: now })
    .where('id', '=', current.id)
    .where('organization_id', '=', current.organization_id)
    .where('revision', '=', current.revision)
    .executeTakeFirst();
  return afterCompareAndSet(result.numUpdatedRows, () =>
    requireCard(db, current.organization_id, current.id),
  );
}

export function cardEventData(card: Card): Record<string, unknown> {
  return {
    accountId: card.account_id,
    holderMemberId: card.holder_member_id,
    lastFour: card.last_four,
    brand: card.brand,
    label: card.label,
  };
}
