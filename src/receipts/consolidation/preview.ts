import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import { asMinor } from '../../db/values.ts';
import {
  type ConsolidationMode,
  type ConsolidationPreview,
  consolidationFingerprint,
  consolidationMode,
  paymentProvider,
} from '../matching/consolidation.ts';
import type { ReceiptCandidate } from '../matching/types.ts';
import { receiptCandidate } from '../processing/fields.ts';

/**
 * The current consolidation preview of a receipt entry and a target entry, read from the
 * database: both entries with their revisions, the receipts behind them (the receipt entry's own,
 * and the target's: its own when it is a receipt entry, else the receipt matched to its
 * transaction), every transaction of either entry or matched to either receipt with its revision,
 * the stored originals of those receipts (evidence id = stored file id, with its SHA-256), and the
 * payment identity as the documents show it. `sourceFingerprint` hashes all of it
 * (src/receipts/matching/consolidation.ts documents the canonical form).
 */
export interface CurrentPreview extends ConsolidationPreview {
  sourceFingerprint: string;
  /** The receipt of the receipt entry (the alias is learned from it). */
  receiptId: string;
  merchant: string | null;
  /** The bank descriptor of the target's card transaction, if any (learned as an alias). */
  targetDescriptor: string | null;
}

interface ReceiptSide {
  id: string;
  revision: number;
  fileId: string;
  sha256: string;
  candidate: ReceiptCandidate;
}

async function receiptsWhere(
  db: Kysely<Database>,
  organizationId: string,
  column: 'entry_id' | 'id',
  values: string[],
) {
  if (values.length === 0) return [];
  const rows = await db
    .selectFrom('receipts')
    .select([
      'id',
      'revision',
      'file_id',
      'sha256',
      'merchant',
      'document_date',
      'total_minor',
      'currency',
      'card_last_four',
      'fields',
    ])
    .where('organization_id', '=', organizationId)
    .where(column, 'in', values)
    .orderBy('id')
    .execute();
  return rows.map(
    (r): ReceiptSide => ({
      id: r.id,
      revision: r.revision,
      fileId: r.file_id,
      sha256: r.sha256,
      candidate: receiptCandidate(r),
    }),
  );
}

async function entry(db: Kysely<Database>, organizationId: string, id: string, field: string) {
  const row = await db
    .selectFrom('ledger_entries')
    .select(['id', 'revision', 'source_type', 'source_id', 'amount_minor', 'currency'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Entry', field);
  return row;
}

/** receiptEntryId names an entry that no processed receipt posted. */
export function notAReceiptEntry(): AppError {
  return new AppError(
    'not_consolidatable',
    'receiptEntryId is not a receipt entry (an entry a processed receipt posted).',
    { field: 'receiptEntryId' },
  );
}

/** The contract's limit on a confirmation's `transactions`. */
const MAX_TRANSACTIONS = 20;

export async function currentPreview(
  db: Kysely<Database>,
  organizationId: string,
  receiptEntryId: string,
  targetEntryId: string,
): Promise<CurrentPreview> {
  const receiptEntry = await entry(db, organizationId, receiptEntryId, 'receiptEntryId');
  const target = await entry(db, organizationId, targetEntryId, 'targetEntryId');
  if (receiptEntry.source_type !== 'receipt') throw notAReceiptEntry();
  if (receiptEntry.id === target.id) {
    throw new AppError('not_consolidatable', 'The receipt entry and the target entry are the same entry.', {
      field: 'targetEntryId',
    });
  }
  const [own] = await receiptsWhere(db, organizationId, 'id', [receiptEntry.source_id]);
  if (!own) throw notFound('Receipt', 'receiptEntryId');
  const transactions = await db
    .selectFrom('bank_transactions as t')
    .leftJoin('books_cards as c', 'c.id', 't.card_id')
    .select(['t.id', 't.revision', 't.receipt_id', 't.description', 'c.last_four'])
    .where('t.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('t.entry_id', 'in', [receiptEntry.id, target.id]),
        // The payment matched to either receipt (same_order: the receipt of the order paid).
        eb('t.receipt_id', 'in', target.source_type === 'receipt' ? [own.id, target.source_id] : [own.id]),
      ]),
    )
    .orderBy('t.id')
    .execute();
  const targetReceiptIds =
    target.source_type === 'receipt'
      ? [target.source_id]
      : transactions.flatMap((t) => (t.receipt_id && t.receipt_id !== own.id ? [t.receipt_id] : []));
  const others = await receiptsWhere(db, organizationId, 'id', targetReceiptIds);
  const card = transactions.find((t) => t.last_four !== null);
  const settledAmount = asMinor(target.amount_minor);
  const sameTotal =
    target.currency === own.candidate.currency &&
    own.candidate.totalMinor !== null &&
    (settledAmount < 0n ? -settledAmount : settledAmount) === own.candidate.totalMinor;
  const mode = modeOf(own.candidate, others, sameTotal ? (card?.last_four ?? null) : null);
  if (mode === null) {
    throw new AppError(
      'not_consolidatable',
      'These entries do not document one purchase: no shared order number, no order confirmation of the same merchant and total, and no provider receipt settled by a card charge of the same total.',
      { field: 'targetEntryId' },
    );
  }
  // A confirmation names 1-20 transactions (the contract): a pair with no payment behind it yet
  // (two receipts of one order, neither matched) cannot be confirmed, so it is not offered.
  if (transactions.length === 0 || transactions.length > MAX_TRANSACTIONS) {
    throw new AppError(
      'not_consolidatable',
      transactions.length === 0
        ? 'No bank or card transaction is matched to either side yet: match the payment to one of the receipts first, then consolidate.'
        : `More than ${MAX_TRANSACTIONS} transactions are involved; a consolidation covers at most ${MAX_TRANSACTIONS}.`,
      { field: 'targetEntryId' },
    );
  }
  const receipts = [own, ...others];
  const candidates = receipts.map((r) => r.candidate);
  const provider = candidates.map(paymentProvider).find((p) => p !== null) ?? null;
  const withCard = candidates.find((c) => c.cardLastFour !== null);
  const preview: ConsolidationPreview = {
    receiptEntry: { id: receiptEntry.id, revision: receiptEntry.revision },
    targetEntry: { id: target.id, revision: target.revision },
    mode,
    transactions: transactions.map((t) => ({ id: t.id, revision: t.revision })),
    receipts: receipts.map((r) => ({ id: r.id, revision: r.revision })),
    originalEvidence: dedupeEvidence(receipts.map((r) => ({ id: r.fileId, contentHash: r.sha256 }))),
    paymentIdentity: {
      method:
        withCard?.paymentMethod ?? candidates.find((c) => c.paymentMethod !== null)?.paymentMethod ?? null,
      cardLastFour: withCard?.cardLastFour ?? card?.last_four ?? null,
      provider,
    },
  };
  return {
    ...preview,
    sourceFingerprint: consolidationFingerprint(preview),
    receiptId: own.id,
    merchant: own.candidate.merchant,
    targetDescriptor: card?.description ?? transactions[0]?.description ?? null,
  };
}

function dedupeEvidence<T extends { id: string }>(items: T[]): T[] {
  return items.filter((item, index) => items.findIndex((other) => other.id === item.id) === index);
}

/**
 * The mode between the receipt and the target's receipt(s); with no receipt on the target side,
 * a provider receipt and a card charge of the target for the same total make a settlement
 * (`targetCard` is null when the totals differ).
 */
function modeOf(
  own: ReceiptCandidate,
  others: ReceiptSide[],
  targetCard: string | null,
): ConsolidationMode | null {
  for (const other of others) {
    const mode = consolidationMode(own, other.candidate);
    if (mode) return mode;
  }
  if (others.length === 0 && targetCard !== null && paymentProvider(own) !== null)
    return 'provider_card_settlement';
  return null;
}
