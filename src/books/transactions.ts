import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { cleanMerchant, dedupeText } from './merchant.ts';
import { postTransactionEntries } from './posting.ts';

/** A transaction to add (from a statement line or transactions.create). */
export interface NewTransaction {
  accountId: string;
  cardId: string | null;
  bookedDate: string;
  valueDate: string | null;
  amountMinor: bigint;
  currency: string;
  originalAmountMinor: bigint | null;
  originalCurrency: string | null;
  feesMinor: bigint | null;
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  bankReference: string | null;
  note: string | null;
  categoryHint: string | null;
  source: 'manual' | 'import';
  importId: string | null;
  lineNumber: number | null;
}

/**
 * Adds transactions with their ledger entries (one each, posted first so the transaction row can
 * name it). Callers batch: at most a few hundred rows per call keeps every statement under both
 * databases' parameter limits.
 */
export async function insertTransactions(
  db: Kysely<Database>,
  organizationId: string,
  transactions: readonly NewTransaction[],
  now: string,
): Promise<string[]> {
  if (transactions.length === 0) return [];
  const rows = transactions.map((t) => ({
    id: newId(),
    organization_id: organizationId,
    account_id: t.accountId,
    card_id: t.cardId,
    booked_date: t.bookedDate,
    value_date: t.valueDate,
    amount_minor: t.amountMinor.toString(),
    currency: t.currency,
    original_amount_minor: t.originalAmountMinor === null ? null : t.originalAmountMinor.toString(),
    original_currency: t.originalCurrency,
    fees_minor: t.feesMinor === null ? null : t.feesMinor.toString(),
    description: t.description,
    merchant: cleanMerchant(t.description, t.counterpartyName),
    counterparty_name: t.counterpartyName,
    counterparty_iban: t.counterpartyIban,
    bank_reference: t.bankReference,
    dedupe_text: dedupeText(t.description),
    status: 'unmatched',
    note: t.note,
    category_hint: t.categoryHint,
    source: t.source,
    import_id: t.importId,
    line_number: t.lineNumber,
    receipt_id: null,
    entry_id: null as string | null,
    revision: 1,
    created_at: now,
    updated_at: now,
  }));
  const entryIds = await postTransactionEntries(
    db,
    organizationId,
    rows.map((row, index) => ({
      id: row.id,
      bookedDate: row.booked_date,
      merchant: row.merchant,
      counterpartyName: row.counterparty_name,
      amountMinor: transactions[index]?.amountMinor ?? 0n,
      currency: row.currency,
    })),
    now,
  );
  for (const row of rows) row.entry_id = entryIds.get(row.id) ?? null;
  await db.insertInto('bank_transactions').values(rows).execute();
  return rows.map((row) => row.id);
}

/** Removes what one import added (a failed or restarted import): transactions, entries, allocations. */
export async function deleteImported(db: Kysely<Database>, importId: string): Promise<void> {
  const added = () => db.selectFrom('bank_transactions').select('id').where('import_id', '=', importId);
  const entries = db
    .selectFrom('ledger_entries')
    .select('id')
    .where('source_type', '=', 'transaction')
    .where('source_id', 'in', added());
  await db.deleteFrom('ledger_allocations').where('entry_id', 'in', entries).execute();
  await db
    .updateTable('bank_transactions')
    .set({ entry_id: null })
    .where('import_id', '=', importId)
    .execute();
  await db
    .deleteFrom('ledger_entries')
    .where('source_type', '=', 'transaction')
    .where('source_id', 'in', added())
    .execute();
  await db.deleteFrom('bank_transactions').where('import_id', '=', importId).execute();
}
