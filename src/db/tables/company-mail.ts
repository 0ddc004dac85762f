import type { ColumnType } from 'kysely';
import type { Timestamp } from './types.ts';

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** A letter: a scanned postal letter or a message to the company mail address. */
export interface MailItemsTable {
  id: string;
  organization_id: string;
  /** `post` (a scan uploaded) or `email` (a message received at the company mail address). */
  channel: string;
  sender: string;
  subject: string;
  received_at: Timestamp;
  /** Files of the letter: 1 for a PDF, one per page image, a message plus its attachments. */
  file_count: number;
  /** Total bytes of the files. */
  size_bytes: ColumnType<number, number, number>;
  read_at: Nullable<Timestamp>;
  archived_at: Nullable<Timestamp>;
  scan_purged_at: Nullable<Timestamp>;
  forwarded_inbox_item_id: Nullable<string>;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One file of a letter, in order (position 1 first). */
export interface MailItemFilesTable {
  organization_id: string;
  item_id: string;
  position: number;
  /** The stored bytes; null once the retention sweeper purged them. */
  scan_id: Nullable<string>;
  media_type: string;
  file_name: string;
  size_bytes: ColumnType<number, number, number>;
  sha256: string;
}

/** One row per read of a letter (mail.items.get, mail.items.download): who, when, which item. */
export interface MailItemReadsTable {
  id: string;
  organization_id: string;
  item_id: string;
  actor_type: string;
  actor_id: string;
  credential_id: string | null;
  operation: string;
  request_id: string;
  read_at: Timestamp;
}

export interface CompanyMailTables {
  mail_items: MailItemsTable;
  mail_item_files: MailItemFilesTable;
  mail_item_reads: MailItemReadsTable;
}
