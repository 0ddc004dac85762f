import type { Kysely, Selectable } from 'kysely';
import { notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { LedgerEntriesTable } from '../../db/tables/books.ts';
import { asIso, asMinor } from '../../db/values.ts';
import type { Entry } from './schema.ts';

export type EntryRow = Selectable<LedgerEntriesTable>;

/** Entries with their allocations and linked transactions, in the order of `rows`. */
export async function toEntries(db: Kysely<Database>, rows: readonly EntryRow[]): Promise<Entry[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const allocations = await db
    .selectFrom('ledger_allocations as a')
    .innerJoin('books_categories as c', 'c.id', 'a.category_id')
    .select(['a.entry_id', 'a.category_id', 'c.code', 'a.amount_minor', 'a.tax_rate', 'a.tax_minor'])
    .where('a.entry_id', 'in', ids)
    .orderBy('a.entry_id')
    .orderBy('a.position')
    .execute();
  const transactions = await db
    .selectFrom('bank_transactions')
    .select(['id', 'entry_id', 'receipt_id'])
    .where('entry_id', 'in', ids)
    .orderBy('id')
    .execute();
  // Receipts associated by a confirmed consolidation (matching.receiptConsolidation.confirm).
  const consolidated = await db
    .selectFrom('receipt_consolidations as k')
    .innerJoin('ledger_entries as e', 'e.id', 'k.receipt_entry_id')
    .select(['k.target_entry_id', 'e.source_id'])
    .where('k.target_entry_id', 'in', ids)
    .where('e.source_type', '=', 'receipt')
    .orderBy('k.created_at')
    .execute();
  const history = await db
    .selectFrom('receipt_consolidations')
    .select(['id', 'receipt_entry_id', 'target_entry_id', 'mode', 'reason', 'confirmed_by', 'created_at'])
    .where((eb) => eb.or([eb('receipt_entry_id', 'in', ids), eb('target_entry_id', 'in', ids)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const receiptIds = (row: EntryRow): string[] => [
    ...(row.source_type === 'receipt' ? [row.source_id] : []),
    ...transactions.flatMap((t) => (t.entry_id === row.id && t.receipt_id ? [t.receipt_id] : [])),
    ...consolidated.filter((k) => k.target_entry_id === row.id).map((k) => k.source_id),
  ];
  return rows.map((row) => ({
    id: row.id,
    date: row.entry_date,
    description: row.description,
    counterparty: row.counterparty,
    amount_minor: asMinor(row.amount_minor).toString(),
    currency: row.currency,
    allocations: allocations
      .filter((a) => a.entry_id === row.id)
      .map((a) => ({
        category_id: a.category_id,
        category_code: a.code,
        amount_minor: asMinor(a.amount_minor).toString(),
        tax_rate: a.tax_rate,
        tax_minor: asMinor(a.tax_minor).toString(),
      })),
    review_status: row.review_status as Entry['review_status'],
    source_type: row.source_type as Entry['source_type'],
    source_id: row.source_id,
    transaction_ids: transactions.filter((t) => t.entry_id === row.id).map((t) => t.id),
    receipt_ids: [...new Set(receiptIds(row))],
    consolidations: history
      .filter((k) => k.receipt_entry_id === row.id || k.target_entry_id === row.id)
      .map((k) => ({
        id: k.id,
        receipt_entry_id: k.receipt_entry_id,
        target_entry_id: k.target_entry_id,
        mode: k.mode as 'same_order' | 'provider_card_settlement',
        reason: k.reason,
        confirmed_by: k.confirmed_by,
        confirmed_at: asIso(k.created_at),
      })),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  }));
}

export async function requireEntry(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<EntryRow> {
  const row = await db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Entry', 'id');
  return row;
}

export async function loadEntry(db: Kysely<Database>, organizationId: string, id: string): Promise<Entry> {
  const [entry] = await toEntries(db, [await requireEntry(db, organizationId, id)]);
  if (!entry) throw notFound('Entry', 'id');
  return entry;
}
