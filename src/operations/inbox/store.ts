import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { likePattern } from '../../books/wire.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { isId } from '../../contract/formats.ts';
import type { Database } from '../../db/schema.ts';
import { asInt, asIso, asJson, asMinor } from '../../db/values.ts';
import { formatAddress, type InboundAddressRow, inboundCounts } from '../../inbound/addresses.ts';
import type { ReceiptRow } from '../../receipts/inbox/intake.ts';
import { totalCandidates } from '../../receipts/inbox/search.ts';
import { afterCompareAndSet } from '../../unit/revision.ts';
import { isIssuedTimestamp } from '../pagination.ts';
import type { InboxAddress, InboxItem, InboxSort } from './schema.ts';

export function toInboxItem(row: ReceiptRow): InboxItem {
  return {
    id: row.id,
    state: row.state as InboxItem['state'],
    source: row.source as InboxItem['source'],
    file_id: row.file_id,
    file_name: row.file_name,
    media_type: row.media_type,
    size: asInt(row.size),
    sha256: row.sha256,
    kind: row.kind,
    merchant: row.merchant,
    date: row.document_date,
    total_minor: row.total_minor === null ? null : asMinor(row.total_minor).toString(),
    currency: row.currency,
    card_last_four: row.card_last_four,
    review_reasons: asJson<string[]>(row.review_reasons),
    failure:
      row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
    fields: row.fields === null ? null : asJson<Record<string, unknown>>(row.fields),
    entry_id: row.entry_id,
    transaction_id: row.transaction_id,
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export async function requireReceipt(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field = 'id',
): Promise<ReceiptRow> {
  const row = await db
    .selectFrom('receipts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Inbox item', field);
  return row;
}

/** Compare-and-set on the revision; a lost race is 409 with the current revision. */
export async function updateReceiptRow(
  db: Kysely<Database>,
  current: ReceiptRow,
  values: Partial<Pick<ReceiptRow, 'state' | 'state_before_ignore' | 'transaction_id'>>,
  now: string,
): Promise<ReceiptRow> {
  const result = await db
    .updateTable('receipts')
    .set({ ...values, revision: current.revision + 1, updated_at: now })
    .where('id', '=', current.id)
    .where('organization_id', '=', current.organization_id)
    .where('revision', '=', current.revision)
    .executeTakeFirst();
  return afterCompareAndSet(result.numUpdatedRows, () =>
    requireReceipt(db, current.organization_id, current.id),
  );
}

export async function toInboxAddress(
  db: Kysely<Database>,
  row: InboundAddressRow,
  domain: string,
): Promise<InboxAddress> {
  const counts = await inboundCounts(db, row.organization_id, row.purpose);
  return {
    address: formatAddress(row.local_part, domain),
    revision: row.revision,
    created_at: asIso(row.created_at),
    accepted_messages: counts.accepted,
    refused_messages: counts.refused,
  };
}

/** The column behind each order of inbox.list, and its direction. */
const SORT_KEYS: Record<
  InboxSort,
  { column: 'created_at' | 'document_date' | 'total_minor'; desc: boolean }
> = {
  received_desc: { column: 'created_at', desc: true },
  received_asc: { column: 'created_at', desc: false },
  date_desc: { column: 'document_date', desc: true },
  date_asc: { column: 'document_date', desc: false },
  amount_desc: { column: 'total_minor', desc: true },
  amount_asc: { column: 'total_minor', desc: false },
};

/** Where a page of a sorted inbox ended: the order, the sort value of the last item, its id. */
export interface SortedPosition {
  sort: InboxSort;
  value: string | null;
  id: string;
}

function sortValue(item: InboxItem, sort: InboxSort): string | null {
  const { column } = SORT_KEYS[sort];
  return column === 'created_at'
    ? item.created_at
    : column === 'document_date'
      ? item.date
      : item.total_minor;
}

export function encodeSortedCursor(item: InboxItem, sort: InboxSort): string {
  return Buffer.from(JSON.stringify([sort, sortValue(item, sort), item.id])).toString('base64url');
}

const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/**
 * A sorted inbox cursor, checked as strictly as any input (its value reaches a typed comparison
 * on PostgreSQL): only what `encodeSortedCursor` issues for this very order passes.
 */
export function decodeSortedCursor(cursor: string, sort: InboxSort): SortedPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 3 && typeof parsed[0] === 'string' && parsed[0] !== sort)
    throw new AppError(
      'invalid_input',
      `cursor belongs to the order ${parsed[0]}, not ${sort}: ask for the first page of this order without a cursor.`,
      { field: 'cursor' },
    );
  if (
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    isId(parsed[2]) &&
    parsed[2] === parsed[2].toLowerCase()
  ) {
    const [, value, id] = parsed as [string, unknown, string];
    const { column } = SORT_KEYS[sort];
    const valid =
      value === null
        ? column !== 'created_at'
        : typeof value === 'string' &&
          (column === 'created_at'
            ? isIssuedTimestamp(value)
            : column === 'document_date'
              ? isCalendarDate(value)
              : /^-?\d{1,18}$/.test(value));
    if (valid) return { sort, value: value as string | null, id };
  }
  throw new AppError('invalid_input', 'cursor is not a cursor this service issued.', { field: 'cursor' });
}

type ReceiptsQuery = SelectQueryBuilder<Database, 'receipts', ReceiptRow>;

/**
 * The inbox in a chosen order, items without the sort value last in both directions, then by id
 * in the order's direction; `after` continues behind a page's last item (keyset, so items that
 * arrive meanwhile neither shift nor repeat the rest).
 */
export function orderInbox(query: ReceiptsQuery, sort: InboxSort, after?: SortedPosition): ReceiptsQuery {
  const { column, desc } = SORT_KEYS[sort];
  const col = sql.ref(column);
  const beyond = sql.raw(desc ? '<' : '>');
  let ordered = query;
  if (after)
    ordered = ordered.where(
      after.value === null
        ? sql<boolean>`(${col} is null and id ${beyond} ${after.id})`
        : sql<boolean>`(${col} is null or ${col} ${beyond} ${after.value} or (${col} = ${after.value} and id ${beyond} ${after.id}))`,
    );
  return ordered
    .orderBy(sql`case when ${col} is null then 1 else 0 end`)
    .orderBy(column, desc ? 'desc' : 'asc')
    .orderBy('id', desc ? 'desc' : 'asc');
}

/**
 * Inbox search: the text in the merchant or the file name (case-insensitive), or, when it reads as
 * an amount, a total of that amount (either sign) in a currency with as many decimals as it needs.
 */
export function searchInbox(query: ReceiptsQuery, text: string): ReceiptsQuery {
  const pattern = likePattern(text);
  const totals = totalCandidates(text).map((c) => {
    const currency =
      'notIn' in c.currencies
        ? sql`(currency is null or currency not in (${sql.join([...c.currencies.notIn])}))`
        : sql`currency in (${sql.join([...c.currencies.in])})`;
    return sql`(total_minor in (${c.minor}, ${`-${c.minor}`}) and ${currency})`;
  });
  return query.where(
    sql<boolean>`(lower(coalesce(merchant, '')) like ${pattern} escape '\\' or lower(file_name) like ${pattern} escape '\\'${
      totals.length ? sql` or ${sql.join(totals, sql` or `)}` : sql``
    })`,
  );
}
