import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { agreementFile } from '../../contractors/agreements.ts';
import { UPLOAD_MEDIA_TYPES } from '../../contractors/template-file.ts';
import { sha256Hex } from '../../lib/canonical-json.ts';
import { defineOperation } from '../define.ts';

export const downloadAgreementOperation = defineOperation({
  name: 'contractors.agreements.download',
  summary: 'Download an agreement: the signed PDF once signed, else the document sent',
  description:
    'Signed: the PDF with its signature page (`<name> (signed).pdf`). Not signed (sent or voided before signing): the exact document sent, whose SHA-256 is `document_sha256`. Over HTTP, `Accept` with the media type or `application/octet-stream` returns the bytes themselves.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Agreement id.') }, { additionalProperties: false }),
  output: Type.Object(
    {
      file_name: Type.String({ description: 'File name to save under.' }),
      media_type: Type.String({ description: 'Media type of the content.' }),
      signed: Type.Boolean({ description: 'Whether this is the signed PDF.' }),
      size_bytes: Type.Integer({ description: 'Size of the content in bytes.' }),
      sha256: Type.String({ description: 'SHA-256 of the content, lowercase hex.' }),
      content_base64: Type.String({ description: 'The content, base64.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  file: {
    mediaTypes: [...new Set(['application/pdf', ...UPLOAD_MEDIA_TYPES])],
    from: (output) => ({
      filename: output.file_name,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  async run({ ctx, input }) {
    const file = await agreementFile(ctx.db, ctx.organizationId, input.id);
    return {
      file_name: file.fileName,
      media_type: file.mediaType,
      signed: file.signed,
      size_bytes: file.bytes.length,
      sha256: sha256Hex(file.bytes),
      content_base64: file.bytes.toString('base64'),
    };
  },
});
