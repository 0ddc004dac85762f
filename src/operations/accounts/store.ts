import type { Kysely, Selectable } from 'kysely';
import { notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { BooksAccountsTable } from '../../db/tables/books.ts';
import { asIso, asIsoOrNull, asMinor } from '../../db/values.ts';
import { afterCompareAndSet } from '../../unit/revision.ts';
import type { Account } from './schema.ts';

export type AccountRow = Selectable<BooksAccountsTable>;

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as Account['kind'],
    currency: row.currency,
    account_ref: row.account_ref,
    opening_balance_minor: asMinor(row.opening_balance_minor).toString(),
    opening_date: row.opening_date,
    archived_at: asIsoOrNull(row.archived_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export async function loadAccount(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<AccountRow | undefined> {
  return db
    .selectFrom('books_accounts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function requireAccount(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field = 'id',
): Promise<AccountRow> {
  const row = await loadAccount(db, organizationId, id);
  if (!row) throw notFound('Account', field);
  return row;
}

/** Compare-and-set on the revision; a lost race is 409 with the current revision. */
export async function updateAccountRow(
  db: Kysely<Database>,
  current: AccountRow,
  values: Partial<Omit<AccountRow, 'id' | 'organization_id' | 'revision'>>,
  now: string,
): Promise<AccountRow> {
  const result = await db
    .updateTable('books_accounts')
    .set({ ...values, revision: current.revision + 1, updated_at: now })
    .where('id', '=', current.id)
    .where('organization_id', '=', current.organization_id)
    .where('revision', '=', current.revision)
    .executeTakeFirst();
  return afterCompareAndSet(result.numUpdatedRows, () =>
    requireAccount(db, current.organization_id, current.id),
  );
}
