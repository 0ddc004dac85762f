import type { Kysely } from 'kysely';
import { categoryIds, UNCATEGORIZED_EXPENSE, UNCATEGORIZED_INCOME } from '../../books/categories.ts';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { ExtractedFields } from '../extraction/types.ts';

const TAX_RATE = /^(100(\.0{1,4})?|[0-9]{1,2}(\.[0-9]{1,4})?)$/;

/**
 * The receipt entry: a processed receipt with a total becomes a ledger entry (source `receipt`)
 * that holds its allocations and tax and waits for a transaction. Money out is negative, as on
 * transactions: a receipt of 119.00 posts -11900; a credit note (negative total) posts a positive
 * amount. One allocation per tax line (taxable + tax, with its rate and tax); whatever the tax
 * lines do not cover (prepaid amounts, rounding, documents without tax lines) is one more
 * allocation at rate 0, so the allocations always sum to the entry's amount.
 */
export async function postReceiptEntry(
  db: Kysely<Database>,
  receipt: { organizationId: string; receiptId: string; date: string; description: string; currency: string },
  totalMinor: bigint,
  fields: ExtractedFields,
  now: string,
): Promise<string> {
  const amount = -totalMinor;
  const categories = await categoryIds(
    db,
    receipt.organizationId,
    [UNCATEGORIZED_INCOME, UNCATEGORIZED_EXPENSE],
    now,
  );
  const category =
    (amount > 0n ? categories.get(UNCATEGORIZED_INCOME) : categories.get(UNCATEGORIZED_EXPENSE)) ??
    categories.get(UNCATEGORIZED_EXPENSE) ??
    categories.get(UNCATEGORIZED_INCOME);
  if (category === undefined) throw new Error('the chart has no uncategorized category');
  const lines: { amount: bigint; rate: string; tax: bigint }[] = [];
  for (const { value } of fields.taxLines) {
    if (value.taxableMinor === null) continue;
    const rate = value.rate !== null && TAX_RATE.test(value.rate) ? value.rate : '0';
    lines.push({ amount: -(value.taxableMinor + value.taxMinor), rate, tax: -value.taxMinor });
  }
  const covered = lines.reduce((sum, l) => sum + l.amount, 0n);
  if (covered !== amount || lines.length === 0) lines.push({ amount: amount - covered, rate: '0', tax: 0n });
  const entryId = newId();
  await db
    .insertInto('ledger_entries')
    .values({
      id: entryId,
      organization_id: receipt.organizationId,
      entry_date: receipt.date,
      description: receipt.description.slice(0, 500),
      counterparty: null,
      amount_minor: amount.toString(),
      currency: receipt.currency,
      review_status: 'unreviewed',
      source_type: 'receipt',
      source_id: receipt.receiptId,
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('ledger_allocations')
    .values(
      lines
        .filter((l) => l.amount !== 0n || lines.length === 1)
        .map((l, position) => ({
          id: newId(),
          organization_id: receipt.organizationId,
          entry_id: entryId,
          position,
          category_id: category,
          amount_minor: l.amount.toString(),
          tax_rate: l.rate,
          tax_minor: l.tax.toString(),
        })),
    )
    .execute();
  return entryId;
}
