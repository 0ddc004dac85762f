import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { dbBool } from '../db/values.ts';
import { newId } from '../lib/ids.ts';

export const CATEGORY_KINDS = ['income', 'expense', 'asset', 'liability', 'equity'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

/**
 * The default chart of a small business (docs/books.md). Each organization gets it on first use
 * and edits it with categories.save; codes are stable handles (exports, imports of other tools).
 */
export const DEFAULT_CHART: ReadonlyArray<{ code: string; name: string; kind: CategoryKind }> = [
  { code: '1000', name: 'Bank and cash', kind: 'asset' },
  { code: '1200', name: 'Accounts receivable', kind: 'asset' },
  { code: '1900', name: 'Transfers between accounts', kind: 'asset' },
  { code: '2100', name: 'Sales tax payable', kind: 'liability' },
  { code: '2500', name: 'Loans', kind: 'liability' },
  { code: '3000', name: 'Owner contributions and draws', kind: 'equity' },
  { code: '4000', name: 'Sales', kind: 'income' },
  { code: '4100', name: 'Services', kind: 'income' },
  { code: '4900', name: 'Other income', kind: 'income' },
  { code: '4999', name: 'Uncategorized income', kind: 'income' },
  { code: '5000', name: 'Cost of goods sold', kind: 'expense' },
  { code: '6000', name: 'Advertising and marketing', kind: 'expense' },
  { code: '6100', name: 'Bank and card fees', kind: 'expense' },
  { code: '6200', name: 'Meals and entertainment', kind: 'expense' },
  { code: '6300', name: 'Office supplies', kind: 'expense' },
  { code: '6400', name: 'Software and subscriptions', kind: 'expense' },
  { code: '6500', name: 'Professional fees', kind: 'expense' },
  { code: '6600', name: 'Rent', kind: 'expense' },
  { code: '6700', name: 'Travel', kind: 'expense' },
  { code: '6800', name: 'Utilities and telecom', kind: 'expense' },
  { code: '6900', name: 'Insurance', kind: 'expense' },
  { code: '7000', name: 'Payroll and contractors', kind: 'expense' },
  { code: '7100', name: 'Taxes and licences', kind: 'expense' },
  { code: '9999', name: 'Uncategorized expense', kind: 'expense' },
];

/** Where a new entry lands until someone reviews it: money in and money out separately. */
export const UNCATEGORIZED_INCOME = '4999';
export const UNCATEGORIZED_EXPENSE = '9999';
export const SALES = '4000';
export const RECEIVABLE = '1200';

/**
 * Seeds the default chart once per organization. Safe under races (unique code per organization,
 * ON CONFLICT DO NOTHING) and cheap afterwards (one indexed read).
 */
export async function ensureChart(db: Kysely<Database>, organizationId: string, now: string): Promise<void> {
  const any = await db
    .selectFrom('books_categories')
    .select('id')
    .where('organization_id', '=', organizationId)
    .limit(1)
    .executeTakeFirst();
  if (any) return;
  await db
    .insertInto('books_categories')
    .values(
      DEFAULT_CHART.map((category) => ({
        id: newId(),
        organization_id: organizationId,
        code: category.code,
        name: category.name,
        kind: category.kind,
        default_tax_rate: null,
        active: dbBool(true),
        revision: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['organization_id', 'code']).doNothing())
    .execute();
}

/** Category ids by code (seeding the chart first when needed). */
export async function categoryIds(
  db: Kysely<Database>,
  organizationId: string,
  codes: readonly string[],
  now: string,
): Promise<Map<string, string>> {
  await ensureChart(db, organizationId, now);
  const rows = await db
    .selectFrom('books_categories')
    .select(['id', 'code'])
    .where('organization_id', '=', organizationId)
    .where('code', 'in', [...codes])
    .execute();
  return new Map(rows.map((row) => [row.code, row.id]));
}
