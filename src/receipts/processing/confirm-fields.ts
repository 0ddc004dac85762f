import { AppError, revisionConflict } from '../../contract/errors.ts';
import { asIso, asJson, dbJson } from '../../db/values.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import type { ExtractedFields } from '../extraction/types.ts';
import type { ReceiptRow } from '../inbox/intake.ts';
import { postReceiptEntry } from './entry.ts';
import { matchNewReceipt } from './suggestions.ts';

/** What a person states about a receipt; anything left out keeps what was read. */
export interface ConfirmedFields {
  merchant?: string;
  date?: string;
  totalMinor?: string;
  currency?: string;
}

const CONFIRMABLE = ['needs_review', 'ready'];

/**
 * A person confirms (and where needed corrects) a receipt's merchant, date, total and currency
 * (decision 333). Until then a read that needs review posts nothing to the books; now the receipt
 * becomes `ready`, its entry is posted with the confirmed values (or, for a ready receipt being
 * corrected, posted again in place of the old one) and matching runs again. What the reader found
 * stays in `fields` as read; the confirmed values are the receipt's summary columns. The caller
 * has checked the revision; the write is compare-and-set on it.
 */
export async function confirmReceiptFields(
  unit: UnitOfWork,
  current: ReceiptRow,
  confirmed: ConfirmedFields,
): Promise<void> {
  const { db, organizationId } = unit;
  if (!CONFIRMABLE.includes(current.state) || current.transaction_id !== null) {
    throw new AppError(
      'invalid_state',
      `An item in state ${current.state} cannot be confirmed (allowed: needs_review, or ready without a transaction; a matched item is detached first).`,
      { details: { state: current.state } },
    );
  }
  const merchant = confirmed.merchant?.trim() || current.merchant;
  const date = confirmed.date ?? current.document_date;
  const total = confirmed.totalMinor ?? (current.total_minor === null ? null : String(current.total_minor));
  const currency = confirmed.currency ?? current.currency;
  const missing = [
    ...(date === null ? ['date'] : []),
    ...(total === null ? ['totalMinor'] : []),
    ...(currency === null ? ['currency'] : []),
  ];
  if (missing.length > 0) {
    throw new AppError(
      'invalid_input',
      `Nothing was read for ${missing.join(', ')}: give ${missing.length === 1 ? 'it' : 'them'} to confirm the receipt.`,
      { field: missing[0] },
    );
  }
  const now = unit.clock.now().toISOString();
  if (current.entry_id !== null) await removeReceiptEntry(unit, current.entry_id);
  const read = asJson<{ totalMinor?: { value?: string }; taxLines?: ExtractedFields['taxLines'] } | null>(
    current.fields,
  );
  // The tax lines read stay with the entry only while the total they belong to is unchanged.
  const keepTax = read?.totalMinor?.value === total;
  const taxLines = keepTax
    ? (read?.taxLines ?? []).map((line) => ({
        ...line,
        value: {
          ...line.value,
          taxableMinor: line.value.taxableMinor === null ? null : BigInt(line.value.taxableMinor),
          taxMinor: BigInt(line.value.taxMinor),
        },
      }))
    : [];
  const entryId = await postReceiptEntry(
    db,
    {
      organizationId,
      receiptId: current.id,
      date: date ?? asIso(current.created_at).slice(0, 10),
      description: merchant ?? current.file_name,
      currency: currency ?? '',
    },
    BigInt(total ?? '0'),
    { taxLines, lineItems: [] } as unknown as ExtractedFields,
    now,
  );
  const updated = await db
    .updateTable('receipts')
    .set({
      state: 'ready',
      review_reasons: dbJson([]),
      merchant: merchant?.slice(0, 300) ?? null,
      document_date: date,
      total_minor: total,
      currency,
      entry_id: entryId,
      revision: current.revision + 1,
      updated_at: now,
    })
    .where('id', '=', current.id)
    .where('organization_id', '=', organizationId)
    .where('revision', '=', current.revision)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    throw revisionConflict(current.revision + 1);
  }
  await unit.audit({
    recordType: 'receipt',
    recordId: current.id,
    beforeRevision: current.revision,
    afterRevision: current.revision + 1,
  });
  await matchNewReceipt(unit, current.id);
}

/** The receipt's own entry, before it is posted again; never one a consolidation points at. */
async function removeReceiptEntry(unit: UnitOfWork, entryId: string): Promise<void> {
  const { db, organizationId } = unit;
  const consolidated = await db
    .selectFrom('receipt_consolidations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('receipt_entry_id', '=', entryId), eb('target_entry_id', '=', entryId)]))
    .executeTakeFirst();
  if (consolidated) {
    throw new AppError('invalid_state', 'The receipt is consolidated; its entry cannot be posted again.', {
      details: { state: 'consolidated' },
    });
  }
  await db.updateTable('receipts').set({ entry_id: null }).where('entry_id', '=', entryId).execute();
  await db.deleteFrom('ledger_allocations').where('entry_id', '=', entryId).execute();
  await db
    .deleteFrom('ledger_entries')
    .where('id', '=', entryId)
    .where('organization_id', '=', organizationId)
    .execute();
}
