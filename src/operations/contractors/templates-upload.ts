import { Type } from 'typebox';
import { IdempotencyKey } from '../../contract/formats.ts';
import { checkFile } from '../../contractors/template-file.ts';
import { defineOperation } from '../define.ts';
import { uploadedFile } from '../uploads.ts';
import { MAX_TEMPLATE_BYTES, Template, TemplateName } from './schema.ts';
import { insertTemplate } from './store.ts';

export const uploadTemplate = defineOperation({
  name: 'contractors.templates.upload',
  summary: 'Upload an original agreement template (PDF, Word or text)',
  description:
    'Stores an uploaded file as an agreement template of kind `uploaded_original`. The content is sent as base64 and must be at most 5 MiB decoded; it must match `mediaType` (PDF, .docx and .doc signatures; UTF-8 for text and Markdown), else 400 `invalid_file`.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  // 5 MiB as base64 is 6 990 508 characters; 7 MiB leaves room for the other fields.
  uploadField: 'contentBase64',
  maxBodyBytes: 7 * 1024 * 1024,
  input: Type.Object(
    {
      name: TemplateName,
      fileName: Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[^/\\\\\\u0000-\\u001f\\u007f]+$',
        description: 'Original file name, 1-255 characters, without path separators or control characters.',
      }),
      mediaType: Type.Union(
        [
          Type.Literal('application/pdf'),
          Type.Literal('application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
          Type.Literal('application/msword'),
          Type.Literal('text/plain'),
          Type.Literal('text/markdown'),
        ],
        { description: 'Media type of the file: PDF, Word (.docx, .doc), plain text or Markdown.' },
      ),
      contentBase64: Type.String({
        description: `The file content, base64 (RFC 4648, padded, no line breaks); at most ${MAX_TEMPLATE_BYTES} bytes decoded.`,
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Template,
  example: {
    name: 'Signed master agreement',
    fileName: 'master-agreement.pdf',
    mediaType: 'application/pdf',
    contentBase64: 'JVBERi0xLjcKJcOkw7zDtsOfCg==',
    idempotencyKey: 'template-upload-0001',
  },
  async run({ ctx, input }) {
    const content = uploadedFile(ctx.upload, input.contentBase64);
    checkFile(content, input.mediaType);
    return insertTemplate(ctx, {
      name: input.name,
      kind: 'uploaded_original',
      mediaType: input.mediaType,
      fileName: input.fileName,
      content,
    });
  },
});
