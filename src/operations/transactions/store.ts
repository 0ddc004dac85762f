import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { ImportCounts, RejectedLine } from '../../books/jobs-queue.ts';
import { notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { BankTransactionsTable, BooksJobsTable } from '../../db/tables/books.ts';
import { asInt, asIso, asIsoOrNull, asJson, asMinor } from '../../db/values.ts';
import type { StatementImport, Transaction, TransactionSort } from './schema.ts';

export type TransactionRow = Selectable<BankTransactionsTable>;

const minorOrNull = (value: unknown) =>
  value === null || value === undefined ? null : asMinor(value).toString();

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    account_id: row.account_id,
    card_id: row.card_id,
    booked_date: row.booked_date,
    value_date: row.value_date,
    amount_minor: asMinor(row.amount_minor).toString(),
    currency: row.currency,
    original_amount_minor: minorOrNull(row.original_amount_minor),
    original_currency: row.original_currency,
    fees_minor: minorOrNull(row.fees_minor),
    description: row.description,
    merchant: row.merchant,
    counterparty_name: row.counterparty_name,
    counterparty_iban: row.counterparty_iban,
    bank_reference: row.bank_reference,
    status: row.status as Transaction['status'],
    note: row.note,
    category_hint: row.category_hint,
    source: row.source as Transaction['source'],
    import_id: row.import_id,
    entry_id: row.entry_id,
    receipt_id: row.receipt_id,
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export async function requireTransaction(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<TransactionRow> {
  const row = await db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Transaction', 'id');
  return row;
}

/** Every job column but the file itself (a status poll never reads 20 MB). */
export const JOB_COLUMNS = [
  'id',
  'organization_id',
  'kind',
  'state',
  'account_id',
  'params',
  'file_name',
  'media_type',
  'file_size',
  'progress',
  'rejected',
  'detection',
  'error_code',
  'error_message',
  'attempts',
  'created_at',
  'started_at',
  'finished_at',
  'purge_after',
] as const;

export type JobSummaryRow = Pick<Selectable<BooksJobsTable>, (typeof JOB_COLUMNS)[number]>;

export function toStatementImport(row: JobSummaryRow): StatementImport {
  const params = asJson<{ cardId?: string | null }>(row.params);
  return {
    id: row.id,
    state: row.state as StatementImport['state'],
    account_id: row.account_id ?? '',
    card_id: params.cardId ?? null,
    file_name: row.file_name ?? '',
    media_type: row.media_type ?? '',
    file_size: asInt(row.file_size),
    detection: row.detection === null ? null : asJson<Record<string, unknown>>(row.detection),
    counts: asJson<ImportCounts>(row.progress),
    rejected: asJson<RejectedLine[]>(row.rejected),
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    created_at: asIso(row.created_at),
    started_at: asIsoOrNull(row.started_at),
    finished_at: asIsoOrNull(row.finished_at),
  };
}

/** Event data of transaction.* events. */
export function transactionEventData(transaction: Transaction): Record<string, unknown> {
  return {
    accountId: transaction.account_id,
    cardId: transaction.card_id,
    bookedDate: transaction.booked_date,
    amountMinor: transaction.amount_minor,
    currency: transaction.currency,
    merchant: transaction.merchant,
    status: transaction.status,
  };
}

/**
 * A transactions query in the order `sort` names; every order ends in the id, so offset pages are
 * stable. Dates go id-wise in their own direction; amounts break ties newest booked date first.
 */
export function orderTransactions<O>(
  query: SelectQueryBuilder<Database & { t: BankTransactionsTable }, 't', O>,
  sort: TransactionSort,
): SelectQueryBuilder<Database & { t: BankTransactionsTable }, 't', O> {
  switch (sort) {
    case 'date_desc':
      return query.orderBy('t.booked_date', 'desc').orderBy('t.id', 'desc');
    case 'date_asc':
      return query.orderBy('t.booked_date', 'asc').orderBy('t.id', 'asc');
    case 'amount_desc':
      return query.orderBy('t.amount_minor', 'desc').orderBy('t.booked_date', 'desc').orderBy('t.id', 'desc');
    case 'amount_asc':
      return query.orderBy('t.amount_minor', 'asc').orderBy('t.booked_date', 'desc').orderBy('t.id', 'desc');
  }
}
