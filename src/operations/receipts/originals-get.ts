import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { readReceiptOriginal } from '../../receipts/originals.ts';
import { defineOperation } from '../define.ts';

const ReceiptOriginal = Type.Object(
  {
    id: Id('Stored file id (an inbox item’s `file_id`, or a consolidation evidence id).'),
    file_name: Type.String({ description: 'File name as received.' }),
    media_type: Type.String({ description: 'Media type read from the bytes.' }),
    sha256: Type.String({ description: 'SHA-256 of the bytes (64 lowercase hex).' }),
    content_base64: Type.String({ description: 'The original bytes, base64.' }),
  },
  { title: 'ReceiptOriginal', additionalProperties: false },
);

/**
 * The original document of a receipt, byte for byte: what a reviewer compares with the extracted
 * fields and what a consolidation's evidence ids name. With `Accept` of the file's type, the bytes.
 */
export const getReceiptOriginal = defineOperation({
  name: 'receipts.originals.get',
  summary: 'Download the original document of a receipt',
  description:
    'By stored file id (an inbox item’s `file_id` or a consolidation preview’s evidence id). Only files that are a receipt of the organization; anything else is 404.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  // Binary documents do not belong in a model's context.
  mcpTool: false,
  input: Type.Object({ id: Id('Stored file id of the original.') }, { additionalProperties: false }),
  output: ReceiptOriginal,
  file: {
    mediaTypes: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'application/xml'],
    from: (output) => ({
      filename: output.file_name,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const file = await readReceiptOriginal(ctx.db, ctx.organizationId, input.id);
    if (!file) throw notFound('Receipt original', 'id');
    return {
      id: file.id,
      file_name: file.fileName,
      media_type: file.mediaType,
      sha256: file.sha256,
      content_base64: file.bytes.toString('base64'),
    };
  },
});
