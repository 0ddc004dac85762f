import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { categoryIds, UNCATEGORIZED_EXPENSE, UNCATEGORIZED_INCOME } from './categories.ts';
import { cleanMerchant, dedupeText } from './merchant.ts';
import type { NewTransaction } from './transactions.ts';

/**
 * The import's write path (issue 29 part 2, decision 420): a batch of statement lines becomes its
 * transactions, their ledger entries and allocations in the fewest statements, with the same rows
 * `insertTransactions` writes (one entry of the line's amount, one allocation to "Uncategorized
 * income" or "Uncategorized expense"; tests compare the two).
 * - PostgreSQL: one statement per batch. The batch travels as one array per column and `unnest`
 *   turns it into rows; data-modifying CTEs insert the entries and allocations beside the
 *   transactions (the foreign keys are checked at the end of the statement). No IN-list of
 *   thousands of parameters to parse and plan, one round trip, nothing locked that others need.
 * - SQLite: three multi-row inserts whose text depends only on the row count, so the writer's
 *   statement cache prepares each once per import; nothing else runs in the batch's transaction.
 * Ids are UUIDv7 (src/lib/ids.ts): time-ordered, so every primary key and the entries' source key
 * grow at their right edge instead of touching a random page per row. Money travels as decimal
 * text and is stored as an exact 64-bit integer on both databases.
 */
export interface ImportWriter {
  write(db: Kysely<Database>, transactions: readonly NewTransaction[], now: string): Promise<void>;
}

/** Resolves the uncategorized categories once per import (creating the chart if it is missing). */
export async function importWriter(
  db: Kysely<Database>,
  dialect: DialectName,
  organizationId: string,
  now: string,
): Promise<ImportWriter> {
  const categories = await db
    .transaction()
    .execute((trx) => categoryIds(trx, organizationId, [UNCATEGORIZED_INCOME, UNCATEGORIZED_EXPENSE], now));
  const income = categories.get(UNCATEGORIZED_INCOME);
  const expense = categories.get(UNCATEGORIZED_EXPENSE);
  // As postTransactionEntries: a chart edited to drop one of the codes falls back to the other.
  const categoryFor = (amountMinor: bigint): string => {
    const category = (amountMinor > 0n ? income : expense) ?? income ?? expense;
    if (category === undefined) throw new Error('the chart has no uncategorized category');
    return category;
  };
  return {
    write: (trx, transactions, at) =>
      transactions.length === 0
        ? Promise.resolve()
        : dialect === 'postgres'
          ? writePostgres(trx, organizationId, transactions, at, categoryFor)
          : writeSqlite(trx, organizationId, transactions, at, categoryFor),
  };
}

interface Row {
  id: string;
  entryId: string;
  allocationId: string;
  t: NewTransaction;
  merchant: string;
  category: string;
}

function rows(transactions: readonly NewTransaction[], categoryFor: (amount: bigint) => string): Row[] {
  return transactions.map((t) => ({
    // The entry first: each id is later than the one before, in the order the rows are written.
    entryId: newId(),
    allocationId: newId(),
    id: newId(),
    t,
    merchant: cleanMerchant(t.description, t.counterpartyName),
    category: categoryFor(t.amountMinor),
  }));
}

const minor = (value: bigint | null) => (value === null ? null : value.toString());

const TRANSACTION_COLUMNS = [
  'id',
  'organization_id',
  'account_id',
  'card_id',
  'booked_date',
  'value_date',
  'amount_minor',
  'currency',
  'original_amount_minor',
  'original_currency',
  'fees_minor',
  'description',
  'merchant',
  'counterparty_name',
  'counterparty_iban',
  'bank_reference',
  'dedupe_text',
  'status',
  'note',
  'category_hint',
  'source',
  'import_id',
  'line_number',
  'receipt_id',
  'entry_id',
  'revision',
  'created_at',
  'updated_at',
] as const;

const ENTRY_COLUMNS = [
  'id',
  'organization_id',
  'entry_date',
  'description',
  'counterparty',
  'amount_minor',
  'currency',
  'review_status',
  'source_type',
  'source_id',
  'revision',
  'created_at',
  'updated_at',
] as const;

const ALLOCATION_COLUMNS = [
  'id',
  'organization_id',
  'entry_id',
  'position',
  'category_id',
  'amount_minor',
  'tax_rate',
  'tax_minor',
] as const;

/** `insert into table (columns) values (?, ...), ...` for `count` rows, made once per count. */
const insertTexts = new Map<string, string>();
function insertText(table: string, columns: readonly string[], count: number): string {
  const key = `${table}:${count}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: count }, () => row).join(', ')}`;
    if (insertTexts.size < 64) insertTexts.set(key, text);
  }
  return text;
}

async function writeSqlite(
  db: Kysely<Database>,
  organizationId: string,
  transactions: readonly NewTransaction[],
  now: string,
  categoryFor: (amount: bigint) => string,
): Promise<void> {
  const batch = rows(transactions, categoryFor);
  const entries: unknown[] = [];
  const allocations: unknown[] = [];
  const bank: unknown[] = [];
  for (const { id, entryId, allocationId, t, merchant, category } of batch) {
    const amount = t.amountMinor.toString();
    entries.push(
      entryId,
      organizationId,
      t.bookedDate,
      merchant,
      t.counterpartyName,
      amount,
      t.currency,
      'unreviewed',
      'transaction',
      id,
      1,
      now,
      now,
    );
    allocations.push(allocationId, organizationId, entryId, 0, category, amount, '0', '0');
    bank.push(
      id,
      organizationId,
      t.accountId,
      t.cardId,
      t.bookedDate,
      t.valueDate,
      amount,
      t.currency,
      minor(t.originalAmountMinor),
      t.originalCurrency,
      minor(t.feesMinor),
      t.description,
      merchant,
      t.counterpartyName,
      t.counterpartyIban,
      t.bankReference,
      dedupeText(t.description),
      'unmatched',
      t.note,
      t.categoryHint,
      t.source,
      t.importId,
      t.lineNumber,
      null,
      entryId,
      1,
      now,
      now,
    );
  }
  const count = batch.length;
  await db.executeQuery(CompiledQuery.raw(insertText('ledger_entries', ENTRY_COLUMNS, count), entries));
  await db.executeQuery(
    CompiledQuery.raw(insertText('ledger_allocations', ALLOCATION_COLUMNS, count), allocations),
  );
  await db.executeQuery(CompiledQuery.raw(insertText('bank_transactions', TRANSACTION_COLUMNS, count), bank));
}

/** One array parameter per column of the batch ($1..$19), typed for unnest. */
const POSTGRES_BATCH = `with t as (
  select * from unnest(
    $1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::date[], $7::date[], $8::bigint[],
    $9::text[], $10::bigint[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::text[],
    $16::text[], $17::text[], $18::text[], $19::integer[], $20::uuid[], $21::text[], $22::text[], $23::text[]
  ) as t(id, entry_id, allocation_id, account_id, card_id, booked_date, value_date, amount_minor,
    currency, original_amount_minor, original_currency, fees_minor, description, merchant,
    counterparty_name, counterparty_iban, bank_reference, dedupe_text, line_number, category_id,
    note, category_hint, source)
), entries as (
  insert into ledger_entries (${ENTRY_COLUMNS.join(', ')})
  select entry_id, $24::uuid, booked_date, merchant, counterparty_name, amount_minor, currency,
    'unreviewed', 'transaction', id, 1, $25::timestamptz, $25::timestamptz
  from t
), allocations as (
  insert into ledger_allocations (${ALLOCATION_COLUMNS.join(', ')})
  select allocation_id, $24::uuid, entry_id, 0, category_id, amount_minor, '0', 0
  from t
)
insert into bank_transactions (${TRANSACTION_COLUMNS.join(', ')})
select id, $24::uuid, account_id, card_id, booked_date, value_date, amount_minor, currency,
  original_amount_minor, original_currency, fees_minor, description, merchant, counterparty_name,
  counterparty_iban, bank_reference, dedupe_text, 'unmatched', note, category_hint, source, $26::uuid,
  line_number, null, entry_id, 1, $25::timestamptz, $25::timestamptz
from t`;

async function writePostgres(
  db: Kysely<Database>,
  organizationId: string,
  transactions: readonly NewTransaction[],
  now: string,
  categoryFor: (amount: bigint) => string,
): Promise<void> {
  const batch = rows(transactions, categoryFor);
  const importIds = new Set(transactions.map((t) => t.importId));
  if (importIds.size !== 1) throw new Error('one import per batch');
  const column = <T>(pick: (row: Row) => T) => batch.map(pick);
  const parameters = [
    column((r) => r.id),
    column((r) => r.entryId),
    column((r) => r.allocationId),
    column((r) => r.t.accountId),
    column((r) => r.t.cardId),
    column((r) => r.t.bookedDate),
    column((r) => r.t.valueDate),
    column((r) => r.t.amountMinor.toString()),
    column((r) => r.t.currency),
    column((r) => minor(r.t.originalAmountMinor)),
    column((r) => r.t.originalCurrency),
    column((r) => minor(r.t.feesMinor)),
    column((r) => r.t.description),
    column((r) => r.merchant),
    column((r) => r.t.counterpartyName),
    column((r) => r.t.counterpartyIban),
    column((r) => r.t.bankReference),
    column((r) => dedupeText(r.t.description)),
    column((r) => r.t.lineNumber),
    column((r) => r.category),
    column((r) => r.t.note),
    column((r) => r.t.categoryHint),
    column((r) => r.t.source),
    organizationId,
    now,
    [...importIds][0] ?? null,
  ];
  await db.executeQuery(CompiledQuery.raw(POSTGRES_BATCH, parameters));
}
