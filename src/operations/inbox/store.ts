import type { Kysely } from 'kysely';
import { notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import { asInt, asIso, asJson, asMinor } from '../../db/values.ts';
import { formatAddress, type InboundAddressRow, inboundCounts } from '../../inbound/addresses.ts';
import type { ReceiptRow } from '../../receipts/inbox/intake.ts';
import { afterCompareAndSet } from '../../unit/revision.ts';
import type { InboxAddress, InboxItem } from './schema.ts';

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
