import type { Kysely, Selectable } from 'kysely';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import type { MailItemFilesTable, MailItemsTable } from '../db/tables/company-mail.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { defaultFileName } from './scan-files.ts';
import type { ScanStore } from './scan-store.ts';

export type MailItemRow = Selectable<MailItemsTable>;
export type MailItemFileRow = Selectable<MailItemFilesTable>;
export type MailChannel = 'post' | 'email';

export interface NewMailItem {
  channel: MailChannel;
  sender: string;
  subject: string;
  receivedAt: string;
  files: ReadonlyArray<{ mediaType: string; fileName?: string | undefined; bytes: Buffer }>;
}

/**
 * A letter arrives (an uploaded scan or a message to the company mail address): its files are
 * stored, its row, audit row and `mail.received` event commit together. The event carries ids,
 * channel, dates and counts only: sender, subject and content stay in the letter.
 */
export async function receiveMailItem(
  unit: UnitOfWork,
  store: ScanStore,
  input: NewMailItem,
): Promise<{ item: MailItemRow; files: MailItemFileRow[] }> {
  const now = unit.clock.now().toISOString();
  const id = newId();
  const files: MailItemFileRow[] = [];
  for (const [index, file] of input.files.entries()) {
    const position = index + 1;
    const fileName = file.fileName ?? defaultFileName(position, file.mediaType);
    const stored = await store.put(unit.db, {
      organizationId: unit.organizationId,
      bytes: file.bytes,
      mediaType: file.mediaType,
      fileName,
      now,
    });
    files.push({
      organization_id: unit.organizationId,
      item_id: id,
      position,
      scan_id: stored.id,
      media_type: file.mediaType,
      file_name: fileName,
      size_bytes: stored.size,
      sha256: stored.sha256,
    });
  }
  const item: MailItemRow = {
    id,
    organization_id: unit.organizationId,
    channel: input.channel,
    sender: input.sender,
    subject: input.subject,
    received_at: new Date(input.receivedAt).toISOString(),
    file_count: files.length,
    size_bytes: files.reduce((sum, file) => sum + file.size_bytes, 0),
    read_at: null,
    archived_at: null,
    scan_purged_at: null,
    forwarded_inbox_item_id: null,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await unit.db.insertInto('mail_items').values(item).execute();
  if (files.length > 0) await unit.db.insertInto('mail_item_files').values(files).execute();
  await unit.audit({ recordType: 'mail_item', recordId: id, beforeRevision: null, afterRevision: 1 });
  await unit.emit({
    type: 'mail.received',
    subject: { type: 'mail_item', id },
    data: {
      channel: item.channel,
      receivedAt: item.received_at,
      fileCount: item.file_count,
      sizeBytes: item.size_bytes,
    },
  });
  return { item, files };
}

export async function requireMailItem(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<MailItemRow> {
  const row = await db
    .selectFrom('mail_items')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Mail item', 'id');
  return row;
}

export function mailItemFiles(db: Kysely<Database>, organizationId: string, itemIds: readonly string[]) {
  if (itemIds.length === 0) return Promise.resolve([] as MailItemFileRow[]);
  return db
    .selectFrom('mail_item_files')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('item_id', 'in', itemIds)
    .orderBy('item_id')
    .orderBy('position')
    .execute();
}

type MailItemChange = Partial<
  Pick<MailItemRow, 'read_at' | 'archived_at' | 'scan_purged_at' | 'forwarded_inbox_item_id'>
>;

/** Compare-and-set on the revision, with the audit row. */
export async function changeMailItem(
  unit: UnitOfWork,
  current: MailItemRow,
  change: MailItemChange,
): Promise<MailItemRow> {
  const updated = await unit.db
    .updateTable('mail_items')
    .set({ ...change, revision: current.revision + 1, updated_at: unit.clock.now().toISOString() })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', current.id)
    .where('revision', '=', current.revision)
    .returningAll()
    .executeTakeFirst();
  if (!updated)
    throw revisionConflict((await requireMailItem(unit.db, unit.organizationId, current.id)).revision);
  await unit.audit({
    recordType: 'mail_item',
    recordId: current.id,
    beforeRevision: current.revision,
    afterRevision: updated.revision,
  });
  return updated;
}

/** 404 -> 409 revision_conflict: the order every change of a letter checks in. */
export async function currentMailItem(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
): Promise<MailItemRow> {
  const row = await requireMailItem(unit.db, unit.organizationId, id);
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  return row;
}

export async function markMailItemRead(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
  read: boolean,
) {
  const row = await currentMailItem(unit, id, expectedRevision);
  if ((row.read_at !== null) === read) {
    throw new AppError('invalid_state', `The letter is already ${read ? 'read' : 'unread'}.`, {
      details: { state: read ? 'read' : 'unread' },
    });
  }
  return changeMailItem(unit, row, { read_at: read ? unit.clock.now().toISOString() : null });
}

export async function archiveMailItem(unit: UnitOfWork, id: string, expectedRevision: number) {
  const row = await currentMailItem(unit, id, expectedRevision);
  if (row.archived_at !== null) {
    throw new AppError('invalid_state', 'The letter is already archived.', {
      details: { state: 'archived' },
    });
  }
  const updated = await changeMailItem(unit, row, { archived_at: unit.clock.now().toISOString() });
  await unit.emit({
    type: 'mail.archived',
    subject: { type: 'mail_item', id },
    data: {
      channel: updated.channel,
      receivedAt: new Date(updated.received_at).toISOString(),
      archivedAt: new Date(updated.archived_at ?? '').toISOString(),
      fileCount: updated.file_count,
    },
  });
  return updated;
}
