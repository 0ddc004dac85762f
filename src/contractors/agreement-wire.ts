import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Id, Timestamp } from '../contract/formats.ts';
import type { ContractorAgreementsTable } from '../db/tables/contractor-work.ts';
import { asIso, asIsoOrNull } from '../db/values.ts';

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** An agreement without its bytes (download them with contractors.agreements.download). */
export const Agreement = Type.Object(
  {
    id: Id('Agreement id.'),
    contractor_id: Id('Contractor id.'),
    template_id: Id('The template it was made from.'),
    title: Type.String({ description: 'Title shown to the contractor.' }),
    status: Type.Union([Type.Literal('sent'), Type.Literal('signed'), Type.Literal('voided')], {
      description: 'sent -> signed (portal), or voided.',
    }),
    media_type: Type.String({ description: 'Media type of the document to sign.' }),
    file_name: Type.String({ description: 'File name of the document to sign.' }),
    document_sha256: Type.String({ description: 'SHA-256 of the exact document to sign, lowercase hex.' }),
    signed_at: Type.Union([Timestamp('When signed.'), Type.Null()], { description: 'When signed, or null.' }),
    signed_name: Nullable('The full name the contractor typed, or null.'),
    signed_address: Nullable('Client IP address the signature came from, or null.'),
    voided_at: Type.Union([Timestamp('When voided.'), Type.Null()], { description: 'When voided, or null.' }),
    void_reason: Nullable('Why it was voided, or null.'),
    revision: Type.Integer({ minimum: 1, description: 'Revision; send it as expectedRevision.' }),
    created_at: Timestamp('When sent (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'ContractorAgreement', additionalProperties: false },
);
export type Agreement = Static<typeof Agreement>;

/** Every column except the two blobs. */
export const AGREEMENT_COLUMNS = [
  'id',
  'organization_id',
  'contractor_id',
  'template_id',
  'title',
  'media_type',
  'file_name',
  'document_sha256',
  'status',
  'signed_at',
  'signed_name',
  'signed_address',
  'signed_user_agent',
  'voided_at',
  'void_reason',
  'revision',
  'created_at',
  'updated_at',
] as const;

export type AgreementRow = Omit<Selectable<ContractorAgreementsTable>, 'document' | 'signed_pdf'>;

export function toAgreement(row: AgreementRow): Agreement {
  return {
    id: row.id,
    contractor_id: row.contractor_id,
    template_id: row.template_id,
    title: row.title,
    status: row.status,
    media_type: row.media_type,
    file_name: row.file_name,
    document_sha256: row.document_sha256,
    signed_at: asIsoOrNull(row.signed_at),
    signed_name: row.signed_name,
    signed_address: row.signed_address,
    voided_at: asIsoOrNull(row.voided_at),
    void_reason: row.void_reason,
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}
