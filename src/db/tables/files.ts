import type { Blob } from './types.ts';

/**
 * The bytes of a stored file or of a books job's file, a MiB per row (decision 458): `file_id` is
 * `stored_files.id` or `books_job_files.job_id`; parts are numbered from 0 and concatenate to the
 * file. Written once with the file, deleted with it, never updated.
 */
export interface FilePartsTable {
  file_id: string;
  part: number;
  organization_id: string;
  bytes: Blob;
}

export interface FileTables {
  file_parts: FilePartsTable;
}
