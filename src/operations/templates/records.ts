import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { AgreementTemplatesTable } from '../../db/tables/contractors.ts';
import { asIso } from '../../db/values.ts';

/** Media types an uploaded original may have (PDF, Word .docx and .doc, plain text, Markdown). */
export const UPLOAD_MEDIA_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
  'text/plain',
  'text/markdown',
] as const;
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[number];

/** Largest template content, decoded: 5 MiB. */
export const MAX_TEMPLATE_BYTES = 5 * 1024 * 1024;
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

type Row = Pick<Selectable<AgreementTemplatesTable>, (typeof TEMPLATE_COLUMNS)[number]>;

export function toTemplate(row: Row): Template {
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
