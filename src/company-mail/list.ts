import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface MailListFilter {
  limit: number;
  /** Keyset position of the last row of the previous page (newest first). */
  after?: { createdAt: string; id: string } | undefined;
  /** false (default): letters not archived; true: archived ones only. */
  archived: boolean;
  unread?: boolean | undefined;
  channel?: string | undefined;
}

/**
 * Letters newest first by arrival in the service (created_at, id): a unique order, so keyset
 * pages never skip or repeat a letter whatever arrives meanwhile. Reads `limit + 1` rows so the
 * caller knows whether another page exists.
 */
export function listMailItems(db: Kysely<Database>, organizationId: string, filter: MailListFilter) {
  let query = db
    .selectFrom('mail_items')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('archived_at', filter.archived ? 'is not' : 'is', null);
  if (filter.unread !== undefined) query = query.where('read_at', filter.unread ? 'is' : 'is not', null);
  if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
  const after = filter.after;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)),
    );
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
}
