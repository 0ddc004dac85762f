import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readFile, type StoredFile } from '../files/store.ts';

/**
 * The original of a receipt (an evidence id of a consolidation preview is one): the stored file,
 * only when a receipt of the organization points at it. The shared file store also holds company
 * mail scans, which accounting credentials must never read through this door.
 */
export async function readReceiptOriginal(
  db: Kysely<Database>,
  organizationId: string,
  fileId: string,
): Promise<(StoredFile & { bytes: Buffer }) | undefined> {
  const receipt = await db
    .selectFrom('receipts')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return receipt ? readFile(db, organizationId, fileId) : undefined;
}
