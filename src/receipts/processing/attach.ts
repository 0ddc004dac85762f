import { AppError, notFound } from '../../contract/errors.ts';
import { asJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { learnAlias } from '../matching/similarity.ts';

export type AttachHow = 'confirmed' | 'manual' | 'auto';

/** Receipt states that can still take a transaction. */
export const ATTACHABLE: readonly string[] = ['ready', 'needs_review'];

/**
 * Attaches a receipt to a transaction: the transaction takes the receipt (status `matched`, so it
 * leaves attention.mine) and the receipt becomes `matched`, pointing at the transaction (and so at
 * its entry, whose receipt_ids list it). The pair's suggestion is confirmed; other open suggestions
 * of either side go (they are answered). Confirmations and manual links teach an alias from the
 * bank's descriptor to the receipt's merchant. Both rows are compare-and-set on their revisions.
 */
export async function attachReceipt(
  unit: UnitOfWork,
  ids: { receiptId: string; transactionId: string },
  how: AttachHow,
  expected: { receiptRevision?: number; transactionRevision?: number } = {},
): Promise<{ receiptRevision: number; transactionRevision: number; entryId: string }> {
  const { db, organizationId } = unit;
  const now = unit.clock.now().toISOString();
  const receipt = await db
    .selectFrom('receipts')
    .select(['id', 'state', 'transaction_id', 'merchant', 'revision'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', ids.receiptId)
    .executeTakeFirst();
  if (!receipt) throw notFound('Receipt', 'receiptId');
  const tx = await db
    .selectFrom('bank_transactions')
    .select(['id', 'status', 'receipt_id', 'description', 'entry_id', 'revision'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', ids.transactionId)
    .executeTakeFirst();
  if (!tx) throw notFound('Transaction', 'transactionId');
  if (expected.receiptRevision !== undefined && expected.receiptRevision !== receipt.revision) {
    throw conflict('expectedReceiptRevision', receipt.revision);
  }
  if (expected.transactionRevision !== undefined && expected.transactionRevision !== tx.revision) {
    throw conflict('expectedTransactionRevision', tx.revision);
  }
  if (!ATTACHABLE.includes(receipt.state) || receipt.transaction_id !== null) {
    throw new AppError(
      'invalid_state',
      `The receipt is ${receipt.state}; only a ready or needs_review receipt without a transaction can be attached.`,
      { field: 'receiptId', details: { state: receipt.state } },
    );
  }
  if (tx.receipt_id !== null || tx.status !== 'unmatched' || tx.entry_id === null) {
    throw new AppError(
      'invalid_state',
      `The transaction is ${tx.status}; only an unmatched transaction without a receipt can take one.`,
      { field: 'transactionId', details: { state: tx.status } },
    );
  }
  const txUpdate = await db
    .updateTable('bank_transactions')
    .set({ receipt_id: receipt.id, status: 'matched', revision: tx.revision + 1, updated_at: now })
    .where('id', '=', tx.id)
    .where('organization_id', '=', organizationId)
    .where('revision', '=', tx.revision)
    .executeTakeFirst();
  const receiptUpdate = await db
    .updateTable('receipts')
    .set({ state: 'matched', transaction_id: tx.id, revision: receipt.revision + 1, updated_at: now })
    .where('id', '=', receipt.id)
    .where('organization_id', '=', organizationId)
    .where('revision', '=', receipt.revision)
    .executeTakeFirst();
  if (txUpdate.numUpdatedRows === 0n) throw conflict('transactionId', tx.revision + 1);
  if (receiptUpdate.numUpdatedRows === 0n) throw conflict('receiptId', receipt.revision + 1);
  // The answered suggestions: this pair is confirmed, any other open one of either side goes.
  await db
    .deleteFrom('match_suggestions')
    .where('organization_id', '=', organizationId)
    .where('state', '=', 'open')
    .where((eb) =>
      eb.and([
        eb.or([eb('receipt_id', '=', receipt.id), eb('transaction_id', '=', tx.id)]),
        eb.or([eb('receipt_id', '!=', receipt.id), eb('transaction_id', '!=', tx.id)]),
      ]),
    )
    .execute();
  await db
    .updateTable('match_suggestions')
    .set({ state: 'confirmed', decided_by: actorName(unit), decided_at: now, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('receipt_id', '=', receipt.id)
    .where('transaction_id', '=', tx.id)
    .execute();
  if (how !== 'auto' && receipt.merchant) await rememberAlias(unit, tx.description, receipt.merchant, how);
  await unit.audit({
    recordType: 'receipt',
    recordId: receipt.id,
    beforeRevision: receipt.revision,
    afterRevision: receipt.revision + 1,
  });
  await unit.audit({
    recordType: 'transaction',
    recordId: tx.id,
    beforeRevision: tx.revision,
    afterRevision: tx.revision + 1,
  });
  await unit.emit({
    type: 'receipt.matched',
    subject: { type: 'receipt', id: receipt.id },
    data: { transactionId: tx.id, entryId: tx.entry_id, how },
  });
  return {
    receiptRevision: receipt.revision + 1,
    transactionRevision: tx.revision + 1,
    entryId: tx.entry_id,
  };
}

/** Undoes an attachment: both sides open again (the receipt ready or needs_review as it was read). */
export async function detachReceipt(
  unit: UnitOfWork,
  receiptId: string,
  expectedRevision: number,
): Promise<{ receiptRevision: number; transactionId: string }> {
  const { db, organizationId } = unit;
  const now = unit.clock.now().toISOString();
  const receipt = await db
    .selectFrom('receipts')
    .select(['id', 'state', 'transaction_id', 'review_reasons', 'revision'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', receiptId)
    .executeTakeFirst();
  if (!receipt) throw notFound('Receipt', 'receiptId');
  if (receipt.revision !== expectedRevision) throw conflict('expectedRevision', receipt.revision);
  if (receipt.state !== 'matched' || receipt.transaction_id === null) {
    throw new AppError('invalid_state', `The receipt is ${receipt.state}, not matched to a transaction.`, {
      field: 'receiptId',
      details: { state: receipt.state },
    });
  }
  const transactionId = receipt.transaction_id;
  const reasonsList = asJson<unknown[]>(receipt.review_reasons);
  const tx = await db
    .selectFrom('bank_transactions')
    .select(['revision'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', transactionId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('bank_transactions')
    .set({ receipt_id: null, status: 'unmatched', revision: tx.revision + 1, updated_at: now })
    .where('id', '=', transactionId)
    .where('organization_id', '=', organizationId)
    .execute();
  const updated = await db
    .updateTable('receipts')
    .set({
      state: reasonsList.length > 0 ? 'needs_review' : 'ready',
      transaction_id: null,
      revision: receipt.revision + 1,
      updated_at: now,
    })
    .where('id', '=', receipt.id)
    .where('revision', '=', receipt.revision)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw conflict('expectedRevision', receipt.revision + 1);
  await db
    .deleteFrom('match_suggestions')
    .where('organization_id', '=', organizationId)
    .where('receipt_id', '=', receipt.id)
    .where('transaction_id', '=', transactionId)
    .where('state', '=', 'confirmed')
    .execute();
  await unit.audit({
    recordType: 'receipt',
    recordId: receipt.id,
    beforeRevision: receipt.revision,
    afterRevision: receipt.revision + 1,
  });
  await unit.audit({
    recordType: 'transaction',
    recordId: transactionId,
    beforeRevision: tx.revision,
    afterRevision: tx.revision + 1,
  });
  await unit.emit({
    type: 'receipt.unmatched',
    subject: { type: 'receipt', id: receipt.id },
    data: { transactionId },
  });
  return { receiptRevision: receipt.revision + 1, transactionId };
}

/** Stores the alias a confirmation teaches (first one wins for a pattern). */
export async function rememberAlias(
  unit: UnitOfWork,
  descriptor: string,
  merchant: string,
  source: string,
): Promise<void> {
  const alias = learnAlias(descriptor, merchant);
  if (!alias) return;
  const existing = await unit.db
    .selectFrom('merchant_aliases')
    .select('id')
    .where('organization_id', '=', unit.organizationId)
    .where('pattern', '=', alias.pattern)
    .executeTakeFirst();
  if (existing) return;
  await unit.db
    .insertInto('merchant_aliases')
    .values({
      id: newId(),
      organization_id: unit.organizationId,
      pattern: alias.pattern,
      merchant: alias.merchant,
      source,
      created_at: unit.clock.now().toISOString(),
    })
    .execute();
}

function conflict(field: string, current: number): AppError {
  return new AppError('revision_conflict', `${field} does not match the current revision ${current}.`, {
    field,
    details: { current_revision: current },
  });
}

function actorName(unit: UnitOfWork): string {
  return unit.actor.type === 'member'
    ? `member:${unit.actor.memberId}`
    : unit.actor.type === 'job'
      ? `job:${unit.actor.job}`
      : 'contractor';
}
