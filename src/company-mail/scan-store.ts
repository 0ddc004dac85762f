import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deleteFileParts } from '../files/parts.ts';
import { readFile, storeFile } from '../files/store.ts';
import { MAX_SCAN_BYTES } from './scan-files.ts';

/**
 * Where the bytes of a letter live: the shared file store (src/files/, content-addressed and in
 * the database, so every node reads the same bytes). Company mail keeps only the stored file's
 * id per file of a letter (`mail_item_files.scan_id`). Every call runs in the caller's
 * transaction (or connection, for reads).
 */
export interface ScanStore {
  put(
    db: Kysely<Database>,
    file: { organizationId: string; bytes: Buffer; mediaType: string; fileName: string; now: string },
  ): Promise<{ id: string; sha256: string; size: number }>;
  /** The bytes, or undefined for an unknown id or another organization's. */
  read(db: Kysely<Database>, organizationId: string, id: string): Promise<Buffer | undefined>;
  /**
   * Called by retention after the letter's reference is cleared: the bytes go once nothing else
   * holds them. Identical bytes are one stored file, so another letter or a receipt inbox item
   * (a letter forwarded to the inbox) may share it; an accounting original is never deleted.
   */
  release(db: Kysely<Database>, organizationId: string, id: string): Promise<boolean>;
}

export const sharedFileScanStore: ScanStore = {
  async put(db, file) {
    const { file: stored } = await storeFile(db, { ...file, maxBytes: MAX_SCAN_BYTES });
    return { id: stored.id, sha256: stored.sha256, size: stored.size };
  },
  async read(db, organizationId, id) {
    return (await readFile(db, organizationId, id))?.bytes;
  },
  async release(db, organizationId, id) {
    const result = await db
      .deleteFrom('stored_files')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('mail_item_files')
              .select('position')
              .where('organization_id', '=', organizationId)
              .where('scan_id', '=', id),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('receipts')
              .select('id')
              .where('organization_id', '=', organizationId)
              .where('file_id', '=', id),
          ),
        ),
      )
      .executeTakeFirst();
    const released = Number(result.numDeletedRows) > 0;
    if (released) await deleteFileParts(db, [id], organizationId);
    return released;
  },
};
