import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asInt } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import { yieldToOthers } from '../lib/yield.ts';
import { PART_BYTES, readFileParts, writeFileParts } from './parts.ts';

/**
 * The shared file store: originals (receipts, forwarded mail attachments) kept in the database by
 * default, so every node of a deployment reads the same bytes without a shared disk. Files are
 * content-addressed by SHA-256 per organization and immutable: the same bytes stored twice are one
 * row, and no code path updates a row (only `storeFile` writes this table). The bytes are kept in
 * `file_parts`, a MiB per row (decision 458).
 */

/** Largest file the store accepts (callers may set a lower limit of their own, receipts 10 MiB). */
export const MAX_STORED_FILE_BYTES = 25 * 1024 * 1024;

export interface StoredFile {
  id: string;
  organizationId: string;
  sha256: string;
  size: number;
  mediaType: string;
  fileName: string;
  createdAt: string;
}

export class FileTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`the file has ${size} bytes; at most ${limit} are stored`);
  }
}

export const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** `sha256Of`, a MiB at a time with the event loop let go between: a 20 MiB hash takes ~40 ms. */
export async function sha256InSlices(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let offset = 0; offset < bytes.length; offset += PART_BYTES) {
    if (offset > 0) await yieldToOthers();
    hash.update(bytes.subarray(offset, offset + PART_BYTES));
  }
  return hash.digest('hex');
}

/**
 * Stores `bytes` for the organization, or finds the identical file stored before (then the first
 * name and media type stay: an original never changes). `created` tells which. Runs in the
 * caller's transaction.
 */
export async function storeFile(
  db: Kysely<Database>,
  file: {
    organizationId: string;
    bytes: Buffer;
    mediaType: string;
    fileName: string;
    now: string;
    maxBytes?: number;
  },
): Promise<{ file: StoredFile; created: boolean }> {
  const limit = Math.min(file.maxBytes ?? MAX_STORED_FILE_BYTES, MAX_STORED_FILE_BYTES);
  if (file.bytes.length > limit) throw new FileTooLargeError(file.bytes.length, limit);
  const sha256 = await sha256InSlices(file.bytes);
  const existing = await findFileBySha(db, file.organizationId, sha256);
  if (existing) return { file: existing, created: false };
  const row = {
    id: newId(),
    organization_id: file.organizationId,
    sha256,
    size: file.bytes.length,
    media_type: file.mediaType.slice(0, 200),
    file_name: file.fileName.slice(0, 255),
    created_at: file.now,
  };
  // A concurrent store of the same bytes loses on the unique (organization, sha256) constraint;
  // the caller's transaction then fails and its retry finds the winner's row.
  await db.insertInto('stored_files').values(row).execute();
  await writeFileParts(db, { fileId: row.id, organizationId: row.organization_id, bytes: file.bytes });
  return { file: toStoredFile(row), created: true };
}

const META = ['id', 'organization_id', 'sha256', 'size', 'media_type', 'file_name', 'created_at'] as const;

function toStoredFile(row: {
  id: string;
  organization_id: string;
  sha256: string;
  size: unknown;
  media_type: string;
  file_name: string;
  created_at: unknown;
}): StoredFile {
  return {
    id: row.id,
    organizationId: row.organization_id,
    sha256: row.sha256,
    size: asInt(row.size),
    mediaType: row.media_type,
    fileName: row.file_name,
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at),
  };
}

export async function findFileBySha(
  db: Kysely<Database>,
  organizationId: string,
  sha256: string,
): Promise<StoredFile | undefined> {
  const row = await db
    .selectFrom('stored_files')
    .select(META)
    .where('organization_id', '=', organizationId)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row ? toStoredFile(row) : undefined;
}

/** The file's description without its bytes; undefined for another organization's file. */
export async function fileInfo(
  db: Kysely<Database>,
  organizationId: string,
  fileId: string,
): Promise<StoredFile | undefined> {
  const row = await db
    .selectFrom('stored_files')
    .select(META)
    .where('organization_id', '=', organizationId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  return row ? toStoredFile(row) : undefined;
}

/**
 * The file with its bytes, checked against its hash on the way out (a damaged row is an error,
 * never silently served). Undefined for an unknown id or another organization's file.
 */
export async function readFile(
  db: Kysely<Database>,
  organizationId: string,
  fileId: string,
): Promise<(StoredFile & { bytes: Buffer }) | undefined> {
  const info = await fileInfo(db, organizationId, fileId);
  if (!info) return undefined;
  const hash = createHash('sha256');
  const bytes = await readFileParts(db, { fileId, organizationId, hash });
  if (bytes.length !== info.size || hash.digest('hex') !== info.sha256)
    throw new Error(`stored file ${fileId} does not match its hash`);
  return { ...info, bytes };
}
