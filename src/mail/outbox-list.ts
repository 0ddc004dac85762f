import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asIso, asIsoOrNull, asJson } from '../db/values.ts';

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'kept', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** What an administrator sees of a queued message: never its body (a sign-in link lives there). */
export interface OutboxEntry {
  id: string;
  kind: string | null;
  recipients: string[];
  subject: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** The organization's outgoing mail, newest first; bodies and attachments are not read. */
export async function listOutbox(
  db: Kysely<Database>,
  organizationId: string,
  page: { limit: number; offset: number; status: OutboxStatus | undefined },
): Promise<OutboxEntry[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select([
      'id',
      'kind',
      'recipients',
      'subject',
      'status',
      'attempts',
      'last_error',
      'created_at',
      'sent_at',
    ])
    .where('organization_id', '=', organizationId);
  if (page.status) query = query.where('status', '=', page.status);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    ...row,
    recipients: asJson<string[]>(row.recipients),
    attempts: Number(row.attempts),
    created_at: asIso(row.created_at),
    sent_at: asIsoOrNull(row.sent_at),
  }));
}
