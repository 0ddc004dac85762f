import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AGREEMENT_COLUMNS, toAgreement } from './agreement-wire.ts';
import { listHours } from './hours-query.ts';
import { toHours } from './hours-wire.ts';
import { withLines } from './payouts.ts';

/**
 * What the portal shows one contractor: only their own rows (every query is scoped by both the
 * organization and the contractor id), newest first, at most `limit`.
 */
export async function ownHours(
  db: Kysely<Database>,
  organizationId: string,
  contractorId: string,
  limit = 100,
) {
  return (await listHours(db, organizationId, { contractorId, limit, offset: 0 })).map(toHours);
}

export async function ownAgreements(db: Kysely<Database>, organizationId: string, contractorId: string) {
  const rows = await db
    .selectFrom('contractor_agreements')
    .select(AGREEMENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map(toAgreement);
}

export async function ownPayouts(db: Kysely<Database>, organizationId: string, contractorId: string) {
  const rows = await db
    .selectFrom('contractor_payments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .orderBy('period_end', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return withLines(db, organizationId, rows);
}
