import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

/**
 * Where the bytes of a letter live. A small interface so the scans can move to the shared file
 * store (src/files/) without touching the letters: the rest of company mail only keeps the id.
 * Every call runs in the caller's transaction (or connection, for reads).
 */
export interface ScanStore {
  put(
    db: Kysely<Database>,
    file: { organizationId: string; bytes: Buffer; mediaType: string; fileName: string; now: string },
  ): Promise<{ id: string; sha256: string; size: number }>;
  /** The bytes, or undefined for an unknown id or another organization's. */
  read(db: Kysely<Database>, organizationId: string, id: string): Promise<Buffer | undefined>;
  /** Deletes the bytes for good (retention). */
  remove(db: Kysely<Database>, organizationId: string, id: string): Promise<void>;
}

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Scans in the database (`mail_scans`), one row per file: every node reads the same bytes. */
export const databaseScanStore: ScanStore = {
  async put(db, file) {
    const row = {
      id: newId(),
      organization_id: file.organizationId,
      sha256: sha256Hex(file.bytes),
      size_bytes: file.bytes.length,
      content: file.bytes,
      created_at: file.now,
    };
    await db.insertInto('mail_scans').values(row).execute();
    return { id: row.id, sha256: row.sha256, size: row.size_bytes };
  },
  async read(db, organizationId, id) {
    const row = await db
      .selectFrom('mail_scans')
      .select('content')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? Buffer.from(row.content) : undefined;
  },
  async remove(db, organizationId, id) {
    await db
      .deleteFrom('mail_scans')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
  },
};
