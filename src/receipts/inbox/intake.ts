import type { Kysely, Selectable } from 'kysely';
import { enqueueJob } from '../../books/jobs-queue.ts';
import { AppError } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { ReceiptsTable } from '../../db/tables/receipts.ts';
import { dbJson } from '../../db/values.ts';
import { sha256InSlices, storeFile } from '../../files/store.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { sniffType } from '../extraction/sniff.ts';
import { ExtractionFailure } from '../extraction/types.ts';

/**
 * Intake: a file becomes an inbox item (a row of `receipts`, state `new`) with its original kept
 * in the file store and an extraction job queued, all in the caller's unit of work. Every way in
 * (receipts.upload, e-mail to the receipts address, mail.items.forwardToInbox) calls
 * `createInboxItem`, so the checks and the dedupe are the same for all.
 */

export type ReceiptRow = Selectable<ReceiptsTable>;
export type InboxSource = 'upload' | 'email' | 'mail_forward';

/** Largest receipt accepted (the limit). */
export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024;

export interface NewInboxItem {
  bytes: Buffer;
  fileName: string;
  mediaType: string;
  source: InboxSource;
  /** Who brought it in, as `member:<id>`. */
  receivedBy: string;
}

/**
 * Checks size and type before anything is stored; the refusal is an AppError with a stable code
 * (`payload_too_large`, or `invalid_file` with `reason` `empty_file`, `unsupported_type` or
 * `type_mismatch`) whose message names what is accepted.
 */
export function checkReceiptFile(
  bytes: Buffer,
  fileName: string,
  mediaType: string,
  field = 'contentBase64',
) {
  if (bytes.length === 0) {
    throw new AppError('invalid_file', 'The file is empty.', { field, details: { reason: 'empty_file' } });
  }
  if (bytes.length > MAX_RECEIPT_BYTES) {
    throw new AppError('payload_too_large', `The file exceeds ${MAX_RECEIPT_BYTES} bytes (10 MiB).`, {
      field,
    });
  }
  try {
    return sniffType(bytes, fileName, mediaType);
  } catch (error) {
    if (!(error instanceof ExtractionFailure)) throw error;
    throw new AppError(
      'invalid_file',
      `${error.message}. Accepted: PDF (with or without embedded Factur-X/ZUGFeRD XML), JPEG, PNG, WebP, UBL 2.1 or UN/CEFACT CII XML.`,
      { field, details: { reason: error.code } },
    );
  }
}

export async function findReceiptBySha(
  db: Kysely<Database>,
  organizationId: string,
  sha256: string,
): Promise<ReceiptRow | undefined> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
}

/**
 * Creates the inbox item, or returns the existing one when the organization already has these
 * exact bytes (SHA-256): `duplicate` is then true and nothing is written. Enqueueing the
 * extraction job wakes the workers once the unit commits, whichever door the file came in by.
 */
export async function createInboxItem(
  unit: UnitOfWork,
  item: NewInboxItem,
): Promise<{ receipt: ReceiptRow; duplicate: boolean }> {
  const type = checkReceiptFile(item.bytes, item.fileName, item.mediaType);
  const existing = await findReceiptBySha(unit.db, unit.organizationId, await sha256InSlices(item.bytes));
  if (existing) return { receipt: existing, duplicate: true };
  const now = unit.clock.now().toISOString();
  const { file } = await storeFile(unit.db, {
    organizationId: unit.organizationId,
    bytes: item.bytes,
    mediaType: item.mediaType,
    fileName: item.fileName,
    now,
    maxBytes: MAX_RECEIPT_BYTES,
  });
  const id = newId();
  const job = await enqueueJob(unit, {
    organizationId: unit.organizationId,
    kind: 'receipt_extraction',
    accountId: null,
    params: { receiptId: id, type },
    fileName: item.fileName,
    mediaType: item.mediaType,
    fileBytes: null,
    createdBy: item.receivedBy,
    now,
  });
  const receipt: ReceiptRow = {
    id,
    organization_id: unit.organizationId,
    file_id: file.id,
    sha256: file.sha256,
    file_name: item.fileName.slice(0, 255),
    media_type: item.mediaType.slice(0, 200),
    size: item.bytes.length,
    source: item.source,
    received_by: item.receivedBy,
    state: 'new',
    state_before_ignore: null,
    kind: null,
    fields: null,
    review_reasons: dbJson([]),
    failure_code: null,
    failure_message: null,
    merchant: null,
    document_date: null,
    service_period_start: null,
    total_minor: null,
    currency: null,
    card_last_four: null,
    entry_id: null,
    transaction_id: null,
    job_id: job.id,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await unit.db
    .insertInto('receipts')
    .values({ ...receipt, fields: null, review_reasons: dbJson([]) })
    .execute();
  await unit.audit({ recordType: 'receipt', recordId: id, beforeRevision: null, afterRevision: 1 });
  return { receipt, duplicate: false };
}
