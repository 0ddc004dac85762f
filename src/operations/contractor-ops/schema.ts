import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { JobRolesTable } from '../../db/tables/contractors.ts';
import { asBool, asIso, asMinor } from '../../db/values.ts';

export const PayCadence = Type.Union(
  [Type.Literal('weekly'), Type.Literal('biweekly'), Type.Literal('semimonthly'), Type.Literal('monthly')],
  { description: 'How often contractors in this role are paid: weekly, biweekly, semimonthly or monthly.' },
);

/** A job role as returned on the wire (snake_case; money as a decimal string of minor units). */
export const JobRole = Type.Object(
  {
    id: Id('Job role id.'),
    name: Type.String({
      description: 'Role name, 1-100 characters, unique in the organization (compared case-insensitively).',
    }),
    description: Type.Union([Type.String(), Type.Null()], {
      description: 'Free-text description of the role, or null when none is set.',
    }),
    hourly_rate_minor: Type.String({ description: 'Hourly rate, decimal string of minor units.' }),
    currency: Type.String({ description: 'ISO 4217 currency code.' }),
    pay_cadence: PayCadence,
    active: Type.Boolean({ description: 'Only active roles can be assigned.' }),
    revision: Type.Integer({
      minimum: 1,
      description: 'Revision: 1 at creation, +1 on every change; send it as expectedRevision.',
    }),
    created_at: Timestamp('When the role was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'JobRole', additionalProperties: false },
);
export type JobRole = Static<typeof JobRole>;

export function toJobRole(row: Selectable<JobRolesTable>): JobRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    hourly_rate_minor: asMinor(row.hourly_rate_minor).toString(),
    currency: row.currency,
    pay_cadence: row.pay_cadence,
    active: asBool(row.active),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
