import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { MailItemFileRow, MailItemRow } from '../../company-mail/items.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { Database } from '../../db/schema.ts';
import { asInt, asIso, asIsoOrNull } from '../../db/values.ts';
import { formatAddress, type InboundAddressRow, inboundCounts } from '../../inbound/addresses.ts';

const NullableTimestamp = (description: string) =>
  Type.Union([Timestamp(description), Type.Null()], { description });

export const MailChannel = Type.Union([Type.Literal('post'), Type.Literal('email')], {
  description:
    '`post`: a scanned postal letter (mail.items.upload); `email`: a message to the company mail address.',
});

export const MailFile = Type.Object(
  {
    position: Type.Integer({
      description: 'Position of the file in the letter, from 1 (mail.items.download `file`).',
    }),
    media_type: Type.String({
      description: 'application/pdf, image/jpeg, image/png, image/tiff or message/rfc822.',
    }),
    file_name: Type.String({ description: 'File name as sent, or letter-<position>.<ext>.' }),
    size_bytes: Type.Integer({ description: 'Size in bytes.' }),
    sha256: Type.String({ description: 'SHA-256 of the bytes, lowercase hex.' }),
    available: Type.Boolean({ description: 'false once the scan retention deleted the bytes.' }),
  },
  { additionalProperties: false },
);

export const MailItem = Type.Object(
  {
    id: Id('Letter id.'),
    channel: MailChannel,
    sender: Type.String({ description: 'Who sent the letter, as recorded at arrival.' }),
    subject: Type.String({ description: 'What the letter is about, as recorded at arrival.' }),
    received_at: Timestamp('When the letter was received.'),
    files: Type.Array(MailFile, { description: 'The files of the letter, in order.' }),
    size_bytes: Type.Integer({ description: 'Total size of the files in bytes.' }),
    read_at: NullableTimestamp('When marked read (mail.items.markRead), or null while unread.'),
    archived_at: NullableTimestamp('When archived, or null.'),
    scan_purged_at: NullableTimestamp("When the scan retention deleted the letter's files, or null."),
    forwarded_inbox_item_id: Type.Union([Id(), Type.Null()], {
      description: 'The receipt inbox item made from this letter (mail.items.forwardToInbox), or null.',
    }),
    revision: Type.Integer({ minimum: 1, description: 'Revision: send it as expectedRevision.' }),
    created_at: Timestamp('When the letter was recorded in the service.'),
    updated_at: Timestamp('Last change.'),
  },
  { title: 'MailItem', additionalProperties: false },
);
export type MailItem = Static<typeof MailItem>;

export const MailRead = Type.Object(
  {
    actor_type: Type.String({ description: '`member`, `system` (a job) or `operator`.' }),
    actor_id: Type.String({ description: 'Member id (or job:<name>, operator:<user>).' }),
    credential_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The API key or OAuth credential used.',
    }),
    operation: Type.String({ description: 'mail.items.get or mail.items.download.' }),
    request_id: Type.String({ description: 'Request id of the read.' }),
    read_at: Timestamp('When.'),
  },
  { additionalProperties: false },
);

export const MailItemWithReads = Type.Object(
  {
    item: MailItem,
    reads: Type.Array(MailRead, {
      description: 'Who read this letter and when, newest first (this read included), at most 100.',
    }),
    read_count: Type.Integer({ description: 'Number of reads recorded in all.' }),
  },
  { additionalProperties: false },
);

export function toMailItem(row: MailItemRow, files: readonly MailItemFileRow[]): MailItem {
  return {
    id: row.id,
    channel: row.channel === 'email' ? 'email' : 'post',
    sender: row.sender,
    subject: row.subject,
    received_at: asIso(row.received_at),
    files: files
      .filter((file) => file.item_id === row.id)
      .map((file) => ({
        position: asInt(file.position),
        media_type: file.media_type,
        file_name: file.file_name,
        size_bytes: asInt(file.size_bytes),
        sha256: file.sha256,
        available: file.scan_id !== null,
      })),
    size_bytes: asInt(row.size_bytes),
    read_at: asIsoOrNull(row.read_at),
    archived_at: asIsoOrNull(row.archived_at),
    scan_purged_at: asIsoOrNull(row.scan_purged_at),
    forwarded_inbox_item_id: row.forwarded_inbox_item_id,
    revision: asInt(row.revision),
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

/** Scopes: reads need `mail:read`; changes `mail:read` and `mail:write` (decision 201). */
export const MAIL_READ_ACCESS = { scopes: ['mail:read'], roles: ['admin', 'finance'] } as const;
export const MAIL_CHANGE_ACCESS = {
  scopes: ['mail:read', 'mail:write'],
  roles: ['admin', 'finance'],
} as const;

export const MailAddress = Type.Object(
  {
    address: Type.String({ description: 'Where company mail is sent; each message becomes a letter.' }),
    revision: Type.Integer({ minimum: 1, description: 'Revision: send it as expectedRevision to rotate.' }),
    created_at: Timestamp('When this address was issued.'),
    accepted_messages: Type.Integer({ minimum: 0, description: 'Messages accepted, all addresses so far.' }),
    refused_messages: Type.Integer({ minimum: 0, description: 'Messages refused (bounces, too large...).' }),
  },
  { title: 'MailAddress', additionalProperties: false },
);

export async function toMailAddress(db: Kysely<Database>, row: InboundAddressRow, domain: string) {
  const counts = await inboundCounts(db, row.organization_id, row.purpose);
  return {
    address: formatAddress(row.local_part, domain),
    revision: row.revision,
    created_at: asIso(row.created_at),
    accepted_messages: counts.accepted,
    refused_messages: counts.refused,
  };
}
