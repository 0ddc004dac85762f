import type { Kysely } from 'kysely';
import { notFound } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';

/** The contractor of the caller's organization, or 404 naming the input field. */
export async function findContractor(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field: string,
) {
  const contractor = await db
    .selectFrom('contractors')
    .select(['id', 'email', 'display_name', 'active', 'joined_at', 'revision'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!contractor) throw notFound('Contractor', field);
  return contractor;
}

/** Invitations of one organization only, never any other. */
export function selectInvitations(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('contractor_invitations').selectAll().where('organization_id', '=', organizationId);
}
