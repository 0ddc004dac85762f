import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { HoursStatus } from '../db/tables/contractor-work.ts';

/** Hours of one organization, newest work date first; the portal passes its own contractor id. */
export function listHours(
  db: Kysely<Database>,
  organizationId: string,
  filter: { contractorId?: string; status?: HoursStatus; limit: number; offset: number },
) {
  let query = db.selectFrom('contractor_hours').selectAll().where('organization_id', '=', organizationId);
  if (filter.contractorId !== undefined) query = query.where('contractor_id', '=', filter.contractorId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query
    .orderBy('work_date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}
