import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Country, Id } from '../../contract/formats.ts';
import type { ContractorsTable } from '../../db/tables/contractors.ts';
import { asBool, asIso, asIsoOrNull } from '../../db/values.ts';

/** The contractor as returned on the wire (snake_case, see docs/decisions.md). */
export const Contractor = Type.Object(
  {
    id: Id('Contractor id.'),
    display_name: Type.String(),
    legal_name: Type.String(),
    email: Type.String(),
    country: Type.Union([Type.String(), Type.Null()]),
    active: Type.Boolean({ description: 'Portal access flag.' }),
    job_role_id: Type.Union([Id('Job role id.'), Type.Null()]),
    portal_status: Type.Union(
      [Type.Literal('not_invited'), Type.Literal('invited'), Type.Literal('joined')],
      {
        description: 'Whether the contractor has joined the portal.',
      },
    ),
    joined_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    revision: Type.Integer({ minimum: 1 }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Contractor', additionalProperties: false },
);
export type Contractor = Static<typeof Contractor>;

export const TaxProfile = Type.Object(
  {
    residency: Type.Union([Country, Type.Null()], {
      description: 'Country of tax residency, once reviewed.',
    }),
    services_in_canada: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Whether services are performed in Canada.',
    }),
    identity_confirmed: Type.Boolean(),
    reviewed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reviewed_by: Type.Union([Type.String(), Type.Null()], { description: 'Member id of the reviewer.' }),
  },
  { title: 'TaxProfile', additionalProperties: false },
);

export const ContractorWithTaxProfile = Type.Object(
  { ...Contractor.properties, tax_profile: TaxProfile },
  { title: 'ContractorWithTaxProfile', additionalProperties: false },
);
export type ContractorWithTaxProfile = Static<typeof ContractorWithTaxProfile>;

type Row = Selectable<ContractorsTable> & { has_open_invitation?: unknown };

export function toContractor(row: Row): Contractor {
  return {
    id: row.id,
    display_name: row.display_name,
    legal_name: row.legal_name,
    email: row.email,
    country: row.country,
    active: asBool(row.active),
    job_role_id: row.job_role_id,
    portal_status: row.joined_at ? 'joined' : asBool(row.has_open_invitation) ? 'invited' : 'not_invited',
    joined_at: asIsoOrNull(row.joined_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export function toContractorWithTaxProfile(row: Row): ContractorWithTaxProfile {
  return {
    ...toContractor(row),
    tax_profile: {
      residency: row.tax_residency,
      services_in_canada: row.tax_services_in_canada === null ? null : asBool(row.tax_services_in_canada),
      identity_confirmed: asBool(row.tax_identity_confirmed),
      reviewed_at: asIsoOrNull(row.tax_reviewed_at),
      reviewed_by: row.tax_reviewed_by,
    },
  };
}
