import { listMailItems } from '../company-mail/list.ts';
import { asIso, asIsoOrNull } from '../db/values.ts';
import type { Services } from '../services.ts';

type Options = Record<string, string | boolean | undefined>;

/** An operator's terminal lists every letter (no page), newest first. */
const LIST_ALL = 1_000_000;

/**
 * `mail list --org ID [--archived]`: the letters as mail.items.list shows them. Listing is not a
 * read of a letter (its files are not shown), so it leaves no access record, as over the API.
 */
export async function mailRows(services: Services, organizationId: string, options: Options) {
  const rows = await listMailItems(services.db.kysely, organizationId, {
    limit: LIST_ALL,
    archived: options.archived === true,
  });
  return rows.map((row) => ({
    mailItemId: row.id,
    channel: row.channel,
    receivedAt: asIso(row.received_at),
    state: row.archived_at !== null ? 'archived' : row.read_at !== null ? 'read' : 'unread',
    files: Number(row.file_count),
    scanPurgedAt: asIsoOrNull(row.scan_purged_at),
    sender: row.sender,
    subject: row.subject,
  }));
}

export function mailLine(row: Awaited<ReturnType<typeof mailRows>>[number]): string {
  return `${row.mailItemId}  ${row.channel.padEnd(5)}  ${row.receivedAt}  ${row.state.padEnd(8)}  ${row.files} file(s)  ${row.sender} — ${row.subject}`;
}
