import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface AuditFilter {
  limit: number;
  /** Keyset position of the last row of the previous page (newest first). */
  after?: { createdAt: string; id: string } | undefined;
  actorId?: string | undefined;
  operation?: string | undefined;
  recordId?: string | undefined;
  recordType?: string | undefined;
  /** Inclusive lower and exclusive upper bounds on created_at (ISO timestamps). */
  from?: string | undefined;
  to?: string | undefined;
}

/** Reads `limit + 1` rows so the caller knows whether another page exists. */
export function listAuditEntries(db: Kysely<Database>, organizationId: string, filter: AuditFilter) {
  let query = db.selectFrom('audit_log').selectAll().where('organization_id', '=', organizationId);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.operation !== undefined) query = query.where('operation', '=', filter.operation);
  if (filter.recordId !== undefined) query = query.where('record_id', '=', filter.recordId);
  if (filter.recordType !== undefined) query = query.where('record_type', '=', filter.recordType);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  const after = filter.after;
  if (after !== undefined) {
    // A row comparison: (created_at, id) < (cursor), newest first; the pair is unique.
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
