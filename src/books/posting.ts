import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { categoryIds, UNCATEGORIZED_EXPENSE, UNCATEGORIZED_INCOME } from './categories.ts';

/** What a transaction contributes to its entry. */
export interface PostableTransaction {
  id: string;
  bookedDate: string;
  merchant: string;
  counterpartyName: string | null;
  amountMinor: bigint;
  currency: string;
}

/**
 * Every transaction posts one entry of the same amount, dated on its booked date, with one
 * allocation to "Uncategorized income" (money in) or "Uncategorized expense" (money out) until
 * someone reviews it. The allocations sum to the amount from the start (the entries invariant).
 * Returns the entry id of each transaction; the caller stores it on the transaction row.
 */
export async function postTransactionEntries(
  db: Kysely<Database>,
  organizationId: string,
  transactions: readonly PostableTransaction[],
  now: string,
): Promise<Map<string, string>> {
  const entryIds = new Map<string, string>();
  if (transactions.length === 0) return entryIds;
  const categories = await categoryIds(
    db,
    organizationId,
    [UNCATEGORIZED_INCOME, UNCATEGORIZED_EXPENSE],
    now,
  );
  const income = categories.get(UNCATEGORIZED_INCOME);
  const expense = categories.get(UNCATEGORIZED_EXPENSE);
  const entries = [];
  const allocations = [];
  for (const transaction of transactions) {
    const entryId = newId();
    entryIds.set(transaction.id, entryId);
    entries.push({
      id: entryId,
      organization_id: organizationId,
      entry_date: transaction.bookedDate,
      description: transaction.merchant,
      counterparty: transaction.counterpartyName,
      amount_minor: transaction.amountMinor.toString(),
      currency: transaction.currency,
      review_status: 'unreviewed',
      source_type: 'transaction',
      source_id: transaction.id,
      revision: 1,
      created_at: now,
      updated_at: now,
    });
    // A category deleted from the chart is impossible (categories are deactivated, never deleted),
    // but a chart edited to drop the uncategorized codes falls back to the other one.
    const category = (transaction.amountMinor > 0n ? income : expense) ?? income ?? expense;
    if (category === undefined) throw new Error('the chart has no uncategorized category');
    allocations.push({
      id: newId(),
      organization_id: organizationId,
      entry_id: entryId,
      position: 0,
      category_id: category,
      amount_minor: transaction.amountMinor.toString(),
      tax_rate: '0',
      tax_minor: '0',
    });
  }
  await db.insertInto('ledger_entries').values(entries).execute();
  await db.insertInto('ledger_allocations').values(allocations).execute();
  return entryIds;
}
