import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Country, Id, Timestamp } from '../../contract/formats.ts';
import type { AgreementTemplatesTable, ContractorsTable } from '../../db/tables/contractors.ts';
import type { ContractorInvitationsTable } from '../../db/tables/invitations.ts';
import { asBool, asIso, asIsoOrNull } from '../../db/values.ts';
import { invitationStatus } from '../../invitations/rules.ts';

/** The contractor as returned on the wire (snake_case, see docs/decisions.md). */
export const Contractor = Type.Object(
  {
    id: Id('Contractor id.'),
    display_name: Type.String({
      description: 'Name shown in the app, invitation emails and the portal, 1-200 characters.',
    }),
    legal_name: Type.String({ description: 'Legal name, 1-300 characters.' }),
    email: Type.String({
      description:
        "Email address, unique in the organization (compared case-insensitively); kept in the caller's spelling.",
    }),
    country: Type.Union([Type.String(), Type.Null()], {
      description: 'Country, two uppercase letters (ISO 3166-1 alpha-2); null when not given.',
    }),
    active: Type.Boolean({ description: 'Portal access flag.' }),
    job_role_id: Type.Union([Id('Job role id.'), Type.Null()], {
      description: 'The assigned job role (contractorOps.roles.assign), or null when none is assigned.',
    }),
    portal_status: Type.Union(
      [Type.Literal('not_invited'), Type.Literal('invited'), Type.Literal('joined')],
      {
        description: 'Whether the contractor has joined the portal.',
      },
    ),
    joined_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the contractor accepted a portal invitation (ISO 8601, UTC); null until then.',
    }),
    revision: Type.Integer({
      minimum: 1,
      description:
        'Revision: 1 at creation, +1 on every change (inviting and joining included); send it as expectedRevision.',
    }),
    created_at: Timestamp('When the contractor was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
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
    identity_confirmed: Type.Boolean({
      description:
        "Whether the last review confirmed the contractor's identity; false until a review confirms it.",
    }),
    reviewed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the tax profile was last reviewed (ISO 8601, UTC); null until reviewed.',
    }),
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

export {
  MAX_TEMPLATE_BYTES,
  UPLOAD_MEDIA_TYPES,
  type UploadMediaType,
} from '../../contractors/template-file.ts';

/** Longest Markdown draft, in characters. */
export const MAX_MARKDOWN_CHARS = 200_000;

export const TemplateKind = Type.Union([Type.Literal('markdown_draft'), Type.Literal('uploaded_original')], {
  description: '`markdown_draft` (written here in Markdown) or `uploaded_original` (an uploaded file).',
});

/** Template metadata as returned on the wire; the content itself is not part of it. */
export const Template = Type.Object(
  {
    id: Id('Template id.'),
    name: Type.String({ description: 'Template name, 1-200 characters.' }),
    kind: TemplateKind,
    media_type: Type.String({ description: 'text/markdown for drafts; the declared type of an upload.' }),
    file_name: Type.Union([Type.String(), Type.Null()], {
      description: "The uploaded file's name; null for drafts.",
    }),
    size_bytes: Type.Integer({ description: 'Size of the content in bytes (UTF-8 for drafts).' }),
    sha256: Type.String({ description: 'SHA-256 of the content, lowercase hex.' }),
    created_by: Type.String({ description: 'Member id of the creator.' }),
    revision: Type.Integer({
      minimum: 1,
      description: 'Revision; 1, since no operation changes a template yet.',
    }),
    created_at: Timestamp('When the template was created (ISO 8601, UTC).'),
    updated_at: Timestamp(
      'Last change (ISO 8601, UTC); equal to created_at while templates are never changed.',
    ),
  },
  { title: 'AgreementTemplate', additionalProperties: false },
);
export type Template = Static<typeof Template>;

/** Every column but the content: lists never read the (up to 5 MiB) blobs. */
export const TEMPLATE_COLUMNS = [
  'id',
  'name',
  'kind',
  'media_type',
  'file_name',
  'size_bytes',
  'sha256',
  'created_by',
  'revision',
  'created_at',
  'updated_at',
] as const;

type TemplateRow = Pick<Selectable<AgreementTemplatesTable>, (typeof TEMPLATE_COLUMNS)[number]>;

export function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    media_type: row.media_type,
    file_name: row.file_name,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    created_by: row.created_by,
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export const TemplateName = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Template name, 1-200 characters.',
});
