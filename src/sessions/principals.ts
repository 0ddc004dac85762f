import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PrincipalType } from '../db/tables/sessions.ts';
import { asBool } from '../db/values.ts';

/**
 * Whether the principal may still use a session. Read on every request and never cached, so a
 * suspended or removed member (or a contractor whose portal access was turned off, or anyone of a
 * suspended organization) is out at once.
 */
export async function principalIsActive(
  db: Kysely<Database>,
  type: PrincipalType,
  organizationId: string,
  principalId: string,
): Promise<boolean> {
  // A suspended organization (`accounting orgs suspend`) ends every session of it.
  if (type === 'member') {
    const member = await db
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['m.status', 'o.suspended_at'])
      .where('m.id', '=', principalId)
      .where('m.organization_id', '=', organizationId)
      .executeTakeFirst();
    return member?.status === 'active' && member.suspended_at === null;
  }
  const contractor = await db
    .selectFrom('contractors as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .select(['c.active', 'o.suspended_at'])
    .where('c.id', '=', principalId)
    .where('c.organization_id', '=', organizationId)
    .executeTakeFirst();
  return contractor !== undefined && asBool(contractor.active) && contractor.suspended_at === null;
}

/** What the dashboard shows of the signed-in member: name, role and organization. */
export async function memberProfile(
  db: Kysely<Database>,
  organizationId: string,
  memberId: string,
): Promise<
  { email: string; name: string | null; role: string; organizationName: string; timeZone: string } | undefined
> {
  return db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.email', 'm.name', 'm.role', 'o.name as organizationName', 'o.time_zone as timeZone'])
    .where('m.id', '=', memberId)
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .executeTakeFirst();
}
