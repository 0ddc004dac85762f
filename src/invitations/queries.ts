import { type Expression, type RawBuilder, sql } from 'kysely';

/**
 * `exists` expression: the contractor has an invitation open at `now` (for a contractor's
 * `portal_status`), e.g. `.select(openInvitationExists(sql.ref('c.id'), now).as('has_open_invitation'))`.
 */
export function openInvitationExists(contractorId: Expression<string>, now: Date): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from contractor_invitations ci where ci.contractor_id = ${contractorId} and ci.status = 'open' and ci.expires_at > ${now.toISOString()})`;
}
