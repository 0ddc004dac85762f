import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { asBool, asMinor } from '../../db/values.ts';
import {
  defaultMatchSettings,
  type MatchSettings,
  type MerchantAlias,
  type ReceiptCandidate,
  type TransactionCandidate,
} from '../matching/types.ts';
import { receiptCandidate } from './fields.ts';

/** Receipts are looked for this many days around a transaction's booked date, and vice versa. */
const WINDOW_BEFORE_DAYS = 30;
const WINDOW_AFTER_DAYS = 10;
/** Candidates scored per side at most (the newest in the window). */
const MAX_CANDIDATES = 2000;

const shift = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export async function matchSettings(db: Kysely<Database>, organizationId: string): Promise<MatchSettings> {
  const row = await db
    .selectFrom('matching_settings')
    .select('auto_match')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const enabled = row ? asBool(row.auto_match) : false;
  return { ...defaultMatchSettings, autoMatch: { ...defaultMatchSettings.autoMatch, enabled } };
}

export async function merchantAliases(
  db: Kysely<Database>,
  organizationId: string,
): Promise<MerchantAlias[]> {
  return db
    .selectFrom('merchant_aliases')
    .select(['pattern', 'merchant'])
    .where('organization_id', '=', organizationId)
    .orderBy('pattern')
    .execute();
}

/** `receiptId:transactionId` of every declined pair touching these records. */
export async function declinedPairs(
  db: Kysely<Database>,
  organizationId: string,
  side: { receiptId?: string; transactionId?: string },
): Promise<Set<string>> {
  let query = db
    .selectFrom('match_suggestions')
    .select(['receipt_id', 'transaction_id'])
    .where('organization_id', '=', organizationId)
    .where('state', '=', 'declined');
  if (side.receiptId) query = query.where('receipt_id', '=', side.receiptId);
  if (side.transactionId) query = query.where('transaction_id', '=', side.transactionId);
  const rows = await query.execute();
  return new Set(rows.map((r) => `${r.receipt_id}:${r.transaction_id}`));
}

function transactionQuery(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('bank_transactions as t')
    .leftJoin('books_cards as c', 'c.id', 't.card_id')
    .select([
      't.id',
      't.account_id',
      'c.last_four',
      't.booked_date',
      't.amount_minor',
      't.currency',
      't.original_amount_minor',
      't.original_currency',
      't.description',
      't.merchant',
    ])
    .where('t.organization_id', '=', organizationId);
}

type TransactionRow = Awaited<ReturnType<ReturnType<typeof transactionQuery>['execute']>>[number];

export function transactionCandidate(row: TransactionRow): TransactionCandidate {
  return {
    id: row.id,
    accountId: row.account_id,
    cardLastFour: row.last_four ?? null,
    bookedDate: row.booked_date,
    amountMinor: asMinor(row.amount_minor),
    currency: row.currency,
    originalAmountMinor: row.original_amount_minor === null ? null : asMinor(row.original_amount_minor),
    originalCurrency: row.original_currency,
    description: row.description,
    merchantClean: row.merchant,
    // Pending lines are never imported (they stay in the import's counts), so every row is booked.
    status: 'booked',
  };
}

/** Transactions with no receipt, not excluded, booked near the receipt's date (any date when it has none). */
export async function openTransactions(
  db: Kysely<Database>,
  organizationId: string,
  receiptDate: string | null,
): Promise<TransactionCandidate[]> {
  let query = transactionQuery(db, organizationId)
    .where('t.receipt_id', 'is', null)
    .where('t.status', '=', 'unmatched');
  if (receiptDate) {
    query = query
      .where('t.booked_date', '>=', shift(receiptDate, -WINDOW_AFTER_DAYS))
      .where('t.booked_date', '<=', shift(receiptDate, WINDOW_BEFORE_DAYS));
  }
  const rows = await query.orderBy('t.booked_date', 'desc').orderBy('t.id').limit(MAX_CANDIDATES).execute();
  return rows.map(transactionCandidate);
}

export async function transactionById(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<TransactionCandidate | undefined> {
  const row = await transactionQuery(db, organizationId).where('t.id', '=', id).executeTakeFirst();
  return row ? transactionCandidate(row) : undefined;
}

const RECEIPT_COLUMNS = [
  'id',
  'merchant',
  'document_date',
  'total_minor',
  'currency',
  'card_last_four',
  'fields',
] as const;

/**
 * Read receipts waiting for a transaction (ready or needs_review, not matched), dated near it or
 * billing a service period that starts near it (a subscription is charged at its period's start).
 */
export async function waitingReceipts(
  db: Kysely<Database>,
  organizationId: string,
  bookedDate: string,
): Promise<ReceiptCandidate[]> {
  const rows = await db
    .selectFrom('receipts')
    .select(RECEIPT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('state', 'in', ['ready', 'needs_review'])
    .where('transaction_id', 'is', null)
    .where((eb) =>
      eb.or([
        eb('document_date', 'is', null),
        eb.and([
          eb('document_date', '>=', shift(bookedDate, -WINDOW_BEFORE_DAYS)),
          eb('document_date', '<=', shift(bookedDate, WINDOW_AFTER_DAYS)),
        ]),
        eb.and([
          eb('service_period_start', '>=', shift(bookedDate, -WINDOW_BEFORE_DAYS)),
          eb('service_period_start', '<=', shift(bookedDate, WINDOW_AFTER_DAYS)),
        ]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .limit(MAX_CANDIDATES)
    .execute();
  return rows.map(receiptCandidate);
}

export async function receiptCandidateById(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<ReceiptCandidate | undefined> {
  const row = await db
    .selectFrom('receipts')
    .select(RECEIPT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? receiptCandidate(row) : undefined;
}
