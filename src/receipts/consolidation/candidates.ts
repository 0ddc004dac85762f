import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import { asMinor } from '../../db/values.ts';
import type { ConsolidationMode } from '../matching/consolidation.ts';
import { currentPreview, notAReceiptEntry } from './preview.ts';

/** An entry a receipt entry could be consolidated into, and why. */
export interface ConsolidationCandidate {
  entryId: string;
  revision: number;
  mode: ConsolidationMode;
  entryDate: string;
  description: string;
  amountMinor: string;
  currency: string;
  sourceType: string;
}

/** Days either side of the receipt entry's date in which a target is looked for. */
const WINDOW_DAYS = 31;
/** Entries near in date that are previewed at most; the rest are not offered. */
const MAX_TRIED = 40;

function shiftDate(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * The entries a receipt entry can be consolidated into, nearest in date first: receipt entries and
 * entries of the receipt's total (either sign) within 31 days, kept only when the preview accepts
 * the pair (so the offer and matching.receiptConsolidation.preview never disagree). Entries this
 * receipt entry was already consolidated into are left out.
 */
export async function consolidationCandidates(
  db: Kysely<Database>,
  organizationId: string,
  receiptEntryId: string,
  limit: number,
): Promise<ConsolidationCandidate[]> {
  const own = await db
    .selectFrom('ledger_entries as e')
    .leftJoin('receipts as r', (join) =>
      join.onRef('r.id', '=', 'e.source_id').onRef('r.organization_id', '=', 'e.organization_id'),
    )
    .select(['e.id', 'e.entry_date', 'e.source_type', 'r.total_minor'])
    .where('e.organization_id', '=', organizationId)
    .where('e.id', '=', receiptEntryId)
    .executeTakeFirst();
  if (!own) throw notFound('Entry', 'receiptEntryId');
  if (own.source_type !== 'receipt') throw notAReceiptEntry();
  const date = String(own.entry_date);
  const total = own.total_minor === null ? null : asMinor(own.total_minor);
  const nearby = await db
    .selectFrom('ledger_entries as e')
    .select(['e.id', 'e.entry_date', 'e.description', 'e.amount_minor', 'e.currency', 'e.source_type'])
    .where('e.organization_id', '=', organizationId)
    .where('e.id', '!=', receiptEntryId)
    .where('e.entry_date', '>=', shiftDate(date, -WINDOW_DAYS))
    .where('e.entry_date', '<=', shiftDate(date, WINDOW_DAYS))
    .where((eb) =>
      eb.or([
        eb('e.source_type', '=', 'receipt'),
        ...(total === null ? [] : [eb('e.amount_minor', 'in', [total.toString(), (-total).toString()])]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('receipt_consolidations as c')
            .select('c.id')
            .where('c.organization_id', '=', organizationId)
            .where('c.receipt_entry_id', '=', receiptEntryId)
            .whereRef('c.target_entry_id', '=', 'e.id'),
        ),
      ),
    )
    .orderBy('e.entry_date', 'desc')
    .orderBy('e.id')
    .limit(200)
    .execute();
  const distance = (other: string) => Math.abs(Date.parse(other) - Date.parse(date));
  const nearest = nearby
    .map((row) => ({ ...row, entry_date: String(row.entry_date) }))
    .sort((a, b) => distance(a.entry_date) - distance(b.entry_date) || a.id.localeCompare(b.id))
    .slice(0, MAX_TRIED);
  const found: ConsolidationCandidate[] = [];
  for (const row of nearest) {
    if (found.length >= limit) break;
    const preview = await currentPreview(db, organizationId, receiptEntryId, row.id).catch(
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'not_consolidatable') return undefined;
        throw error;
      },
    );
    if (!preview) continue;
    found.push({
      entryId: row.id,
      revision: preview.targetEntry.revision,
      mode: preview.mode,
      entryDate: row.entry_date,
      description: row.description,
      amountMinor: asMinor(row.amount_minor).toString(),
      currency: row.currency,
      sourceType: row.source_type,
    });
  }
  return found;
}
