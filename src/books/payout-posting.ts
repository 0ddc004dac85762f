import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { categoryIds } from './categories.ts';

/** 7000 Payroll and contractors in the default chart. */
export const CONTRACTORS_EXPENSE = '7000';

/**
 * A payout marked paid posts one entry on its payment date: money out (a negative amount, as a
 * bank debit posts) allocated in full to 7000 Payroll and contractors (docs/contractors.md).
 * Cash basis: nothing posts when the payout is only created, so an unpaid payout leaves the
 * books untouched and the tax year summary and the ledger agree on the date.
 */
export async function postPayoutEntry(
  db: Kysely<Database>,
  organizationId: string,
  payout: { id: string; paidOn: string; contractorName: string; currency: string; amountMinor: bigint },
  now: string,
): Promise<string> {
  const categories = await categoryIds(db, organizationId, [CONTRACTORS_EXPENSE], now);
  const category = categories.get(CONTRACTORS_EXPENSE);
  if (category === undefined) throw new Error(`the chart has no category ${CONTRACTORS_EXPENSE}`);
  const id = newId();
  const amount = (-payout.amountMinor).toString();
  await db
    .insertInto('ledger_entries')
    .values({
      id,
      organization_id: organizationId,
      entry_date: payout.paidOn,
      description: `Contractor payout to ${payout.contractorName}`,
      counterparty: payout.contractorName,
      amount_minor: amount,
      currency: payout.currency,
      review_status: 'unreviewed',
      source_type: 'contractor_payout',
      source_id: payout.id,
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('ledger_allocations')
    .values({
      id: newId(),
      organization_id: organizationId,
      entry_id: id,
      position: 0,
      category_id: category,
      amount_minor: amount,
      tax_rate: '0',
      tax_minor: '0',
    })
    .execute();
  return id;
}
