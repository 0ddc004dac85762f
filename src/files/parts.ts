import type { Hash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { yieldToOthers } from '../lib/yield.ts';

/**
 * A file's bytes as rows of `file_parts` (decision 458). Big blobs stall the event loop: SQLite
 * writes and reads a row in one synchronous call, pg parses a whole bytea on the event loop. So
 * bytes are written a MiB per row and read a MiB per query, and the event loop is let go between
 * them, so that other requests are answered while a 20 MiB original is stored or read.
 */

/** Bytes per stored part, and per read query. */
export const PART_BYTES = 1024 * 1024;

/** Writes `bytes` as the parts of `fileId`, in the caller's transaction. An empty file has none. */
export async function writeFileParts(
  db: Kysely<Database>,
  file: { fileId: string; organizationId: string; bytes: Buffer },
): Promise<void> {
  for (let offset = 0, part = 0; offset < file.bytes.length; offset += PART_BYTES, part += 1) {
    if (part > 0) await yieldToOthers();
    await db
      .insertInto('file_parts')
      .values({
        file_id: file.fileId,
        part,
        organization_id: file.organizationId,
        bytes: file.bytes.subarray(offset, offset + PART_BYTES),
      })
      .execute();
  }
}

/**
 * The bytes of `fileId`, copied into one buffer as they come (no list of parts, no second copy).
 * `hash`, when given, sees every byte in order. A part that is missing or changes while read is
 * an error, never a silently shorter file.
 */
export async function readFileParts(
  db: Kysely<Database>,
  file: { fileId: string; organizationId: string; hash?: Hash },
): Promise<Buffer> {
  const parts = await db
    .selectFrom('file_parts')
    .select(['part', sql<number | string>`length(bytes)`.as('size')])
    .where('organization_id', '=', file.organizationId)
    .where('file_id', '=', file.fileId)
    .orderBy('part')
    .execute();
  const sizes = parts.map((p, index) => {
    if (Number(p.part) !== index) throw new Error(`file ${file.fileId} is missing part ${index}`);
    return Number(p.size);
  });
  const bytes = Buffer.allocUnsafe(sizes.reduce((sum, size) => sum + size, 0));
  let written = 0;
  for (const [part, size] of sizes.entries()) {
    // Files stored before parts existed are one part of any size: still read a MiB at a time.
    for (let offset = 0; offset < size; offset += PART_BYTES) {
      if (written > 0) await yieldToOthers();
      const chunk = await db
        .selectFrom('file_parts')
        .select(sql<Uint8Array>`substr(bytes, ${offset + 1}, ${PART_BYTES})`.as('bytes'))
        .where('organization_id', '=', file.organizationId)
        .where('file_id', '=', file.fileId)
        .where('part', '=', part)
        .executeTakeFirst();
      if (chunk?.bytes.length !== Math.min(PART_BYTES, size - offset))
        throw new Error(`file ${file.fileId} changed while read`);
      file.hash?.update(chunk.bytes);
      bytes.set(chunk.bytes, written);
      written += chunk.bytes.length;
    }
  }
  return bytes;
}

/** Deletes the parts of the organization's files `fileIds`, in the caller's transaction. */
export async function deleteFileParts(
  db: Kysely<Database>,
  fileIds: readonly string[],
  organizationId: string,
): Promise<void> {
  if (fileIds.length === 0) return;
  await db
    .deleteFrom('file_parts')
    .where('organization_id', '=', organizationId)
    .where('file_id', 'in', fileIds)
    .execute();
}
