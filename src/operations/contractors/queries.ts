import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Contractors of one organization (never any other), aliased `c`. */
export function selectContractors(db: Kysely<Database>, organizationId: string, _now: Date) {
  return db.selectFrom('contractors as c').selectAll('c').where('c.organization_id', '=', organizationId);
}
