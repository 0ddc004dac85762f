import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import type { ContractorInvitationsTable } from '../../db/tables/invitations.ts';
import { asIso, asIsoOrNull } from '../../db/values.ts';
import { invitationStatus } from '../../invitations/rules.ts';

const Time = (description: string) => Type.String({ format: 'date-time', description });
const TimeOrNull = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

/** A portal invitation on the wire (snake_case, like every returned record). */
export const Invitation = Type.Object(
  {
    id: Id('Invitation id.'),
    contractor_id: Id('Contractor id.'),
    email: Type.String({ description: 'The address the invitation was sent to.' }),
    status: Type.Union(
      [
        Type.Literal('open'),
        Type.Literal('accepted'),
        Type.Literal('revoked'),
        Type.Literal('replaced'),
        Type.Literal('expired'),
      ],
      {
        description:
          'open (link works), accepted, revoked, replaced (a newer invitation was sent) or expired (7 days passed).',
      },
    ),
    expires_at: Time('When the link stops working: 7 days after it was sent.'),
    accepted_at: TimeOrNull('When the contractor accepted, or null.'),
    revoked_at: TimeOrNull('When it was revoked, or null.'),
    replaced_at: TimeOrNull('When a newer invitation replaced it, or null.'),
    revision: Type.Integer({ minimum: 1, description: 'Revision of the invitation (for revoke).' }),
    created_at: Time('When it was sent.'),
    updated_at: Time('Last change.'),
  },
  { title: 'Invitation', additionalProperties: false },
);
export type Invitation = Static<typeof Invitation>;

export function toInvitation(row: Selectable<ContractorInvitationsTable>, now: Date): Invitation {
  return {
    id: row.id,
    contractor_id: row.contractor_id,
    email: row.email,
    status: invitationStatus({ status: row.status, expires_at: asIso(row.expires_at) }, now),
    expires_at: asIso(row.expires_at),
    accepted_at: asIsoOrNull(row.accepted_at),
    revoked_at: asIsoOrNull(row.revoked_at),
    replaced_at: asIsoOrNull(row.replaced_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
