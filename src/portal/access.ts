import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asBool } from '../db/values.ts';

/** The contractor the portal shows, with what the page header needs. */
export interface PortalContractor {
  contractorId: string;
  organizationId: string;
  displayName: string;
  legalName: string;
  organizationName: string;
  /** The organization's IANA zone: the portal shows times on its clock, as the dashboard does. */
  timeZone: string;
}

/**
 * Whether a contractor may use the portal now: they joined through an invitation that is still
 * accepted (not revoked), portal access (`active`) is on, and the organization is not suspended.
 * Read on every request, never cached: any of the three ends access at the next page.
 */
export async function portalContractor(
  db: Kysely<Database>,
  organizationId: string,
  contractorId: string,
): Promise<PortalContractor | undefined> {
  const row = await db
    .selectFrom('contractors as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select([
      'c.id',
      'c.display_name',
      'c.legal_name',
      'c.active',
      'c.joined_at',
      'o.name',
      'o.suspended_at',
      'o.time_zone',
    ])
    .select((eb) =>
      eb
        .selectFrom('contractor_invitations as i')
        .select('i.status')
        .whereRef('i.contractor_id', '=', 'c.id')
        .whereRef('i.organization_id', '=', 'c.organization_id')
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(1)
        .as('invitation_status'),
    )
    .where('c.organization_id', '=', organizationId)
    .where('c.id', '=', contractorId)
    .executeTakeFirst();
  if (!row || !asBool(row.active) || row.joined_at === null || row.suspended_at !== null) return undefined;
  if (row.invitation_status !== 'accepted') return undefined;
  return {
    contractorId: row.id,
    organizationId,
    displayName: row.display_name,
    legalName: row.legal_name,
    organizationName: row.name,
    timeZone: row.time_zone,
  };
}

/** Joined contractors of any organization with this address (a person may work for several). */
export async function contractorsByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('contractors as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(['c.id', 'c.organization_id', 'c.email', 'o.name'])
    .where('c.email_normalized', '=', email.trim().toLowerCase())
    .where('c.joined_at', 'is not', null)
    .orderBy('o.name')
    .limit(20)
    .execute();
}
