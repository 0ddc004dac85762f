import { AppError, revisionConflict } from '../../contract/errors.ts';
import { dbJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import type { ConsolidationMode } from '../matching/consolidation.ts';
import { rememberAlias } from '../processing/attach.ts';
import { currentPreview } from './preview.ts';

/** The body of matching.receiptConsolidation.confirm, as the contract gives it. */
export interface ConsolidationConfirmation {
  receiptEntryId: string;
  expectedReceiptRevision: number;
  targetEntryId: string;
  expectedTargetRevision: number;
  mode: ConsolidationMode;
  transactions: readonly { id: string; expectedRevision: number }[];
  expectedSourceFingerprint: string;
  reviewedOriginalEvidenceIds: readonly string[];
  originalsReviewed: boolean;
  reason: string;
}

const conflictOn = (field: string, current: number) =>
  new AppError('revision_conflict', `${field} does not match the current revision ${current}.`, {
    field,
    details: { current_revision: current },
  });

const stale = (reason: string, message: string, field: string) =>
  new AppError('consolidation_stale', message, { field, details: { reason } });

/**
 * Confirms a consolidation that a finance member reviewed (the dashboard calls this inside its
 * unit of work; API keys, OAuth and MCP never reach it: the operation is `dashboard` only). Every
 * check is against the preview as it is now, so anything that changed since the review refuses:
 * both entry revisions, the mode, exactly the preview's transactions at their revisions, the
 * fingerprint, each reviewed evidence id a current original of the pair, `originalsReviewed`
 * true, a reason of 10-1000 characters. The effect is exactly a receipt association (a
 * `receipt_consolidations` row holding the reason: the record's history) and an alias; the two
 * entries get their revision bumped (so a second confirmation of the same preview is stale) and
 * nothing else: no amount, allocation, tax or review status changes.
 */
export async function confirmConsolidation(
  unit: UnitOfWork,
  input: ConsolidationConfirmation,
  confirmedBy: string,
): Promise<{
  receiptRevision: number;
  targetRevision: number;
  mode: ConsolidationMode;
  consolidationId: string;
}> {
  if (input.originalsReviewed !== true) {
    throw new AppError(
      'invalid_input',
      'originalsReviewed must be true: review the current originals first.',
      {
        field: 'originalsReviewed',
      },
    );
  }
  const reason = consolidationReason(input.reason);
  const preview = await currentPreview(
    unit.db,
    unit.organizationId,
    input.receiptEntryId,
    input.targetEntryId,
  );
  if (preview.receiptEntry.revision !== input.expectedReceiptRevision) {
    throw conflictOn('expectedReceiptRevision', preview.receiptEntry.revision);
  }
  if (preview.targetEntry.revision !== input.expectedTargetRevision)
    throw conflictOn('expectedTargetRevision', preview.targetEntry.revision);
  if (preview.mode !== input.mode) {
    throw stale('mode_mismatch', `The current preview's mode is ${preview.mode}, not ${input.mode}.`, 'mode');
  }
  const expected = new Map(input.transactions.map((t) => [t.id, t.expectedRevision]));
  const sameSet =
    expected.size === input.transactions.length &&
    expected.size === preview.transactions.length &&
    preview.transactions.every((t) => expected.get(t.id) === t.revision);
  if (!sameSet) {
    throw stale(
      'transactions_mismatch',
      'transactions must list exactly the preview’s transactions, each at its current revision.',
      'transactions',
    );
  }
  if (preview.sourceFingerprint !== input.expectedSourceFingerprint) {
    throw stale(
      'fingerprint_mismatch',
      'expectedSourceFingerprint is not the current preview’s fingerprint.',
      'expectedSourceFingerprint',
    );
  }
  const current = new Set(preview.originalEvidence.map((e) => e.id));
  const notCurrent = input.reviewedOriginalEvidenceIds.filter((id) => !current.has(id));
  if (notCurrent.length > 0) {
    throw stale(
      'evidence_not_current',
      `reviewedOriginalEvidenceIds names documents that are not current originals of the pair: ${notCurrent.join(', ')}.`,
      'reviewedOriginalEvidenceIds',
    );
  }
  const now = unit.clock.now().toISOString();
  for (const ref of [preview.receiptEntry, preview.targetEntry]) {
    const bumped = await unit.db
      .updateTable('ledger_entries')
      .set({ revision: ref.revision + 1, updated_at: now })
      .where('organization_id', '=', unit.organizationId)
      .where('id', '=', ref.id)
      .where('revision', '=', ref.revision)
      .executeTakeFirst();
    if (bumped.numUpdatedRows === 0n) throw revisionConflict(ref.revision + 1);
    await unit.audit({
      recordType: 'entry',
      recordId: ref.id,
      beforeRevision: ref.revision,
      afterRevision: ref.revision + 1,
    });
  }
  // A pair confirmed once is one association; a second confirmation (another member, a form
  // loaded after the first, whose revisions are current) is refused in words, never by the unique constraint (a 500).
  const already = await unit.db
    .selectFrom('receipt_consolidations')
    .select('id')
    .where('organization_id', '=', unit.organizationId)
    .where('receipt_entry_id', '=', input.receiptEntryId)
    .where('target_entry_id', '=', input.targetEntryId)
    .executeTakeFirst();
  if (already) {
    throw new AppError('invalid_state', 'These two entries are already consolidated.', {
      field: 'targetEntryId',
      details: { state: 'consolidated' },
    });
  }
  const consolidationId = newId();
  await unit.db
    .insertInto('receipt_consolidations')
    .values({
      id: consolidationId,
      organization_id: unit.organizationId,
      receipt_entry_id: preview.receiptEntry.id,
      target_entry_id: preview.targetEntry.id,
      mode: preview.mode,
      source_fingerprint: preview.sourceFingerprint,
      evidence_ids: dbJson([...input.reviewedOriginalEvidenceIds].sort()),
      reason,
      confirmed_by: confirmedBy,
      created_at: now,
    })
    .execute();
  // The consolidation record in the audit log (actor: who confirmed); its row holds the reason,
  // which entries.get returns under `consolidations`.
  await unit.audit({
    recordType: 'receipt_consolidation',
    recordId: consolidationId,
    beforeRevision: null,
    afterRevision: 1,
  });
  if (preview.targetDescriptor && preview.merchant) {
    await rememberAlias(unit, preview.targetDescriptor, preview.merchant, 'consolidation');
  }
  await unit.emit({
    type: 'receipt.consolidated',
    subject: { type: 'entry', id: preview.targetEntry.id },
    data: {
      receiptEntryId: preview.receiptEntry.id,
      targetEntryId: preview.targetEntry.id,
      mode: preview.mode,
      sourceFingerprint: preview.sourceFingerprint,
    },
  });
  return {
    receiptRevision: preview.receiptEntry.revision + 1,
    targetRevision: preview.targetEntry.revision + 1,
    mode: preview.mode,
    consolidationId,
  };
}

/**
 * The reviewer's reason, trimmed, 10-1000 characters counted as code points (as the schema's
 * limits count them): 600 "🧾" is 600 characters, not 1200 UTF-16 units (issue 27).
 */
export function consolidationReason(raw: string): string {
  const reason = raw.trim();
  const characters = [...reason].length;
  if (characters < 10 || characters > 1000) {
    throw new AppError('invalid_input', 'reason must be 10-1000 characters.', { field: 'reason' });
  }
  return reason;
}
