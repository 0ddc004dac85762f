import { Type } from 'typebox';
import { mailItemFiles, requireMailItem } from '../../company-mail/items.ts';
import { recordMailRead } from '../../company-mail/reads.ts';
import { SCAN_MEDIA_TYPES } from '../../company-mail/scan-files.ts';
import { mailScanStore } from '../../company-mail/scans.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { asInt } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { MAIL_READ_ACCESS } from './schema.ts';

export const downloadMailItem = defineOperation({
  name: 'mail.items.download',
  summary: "Download one of a letter's files",
  description:
    "The file's bytes as received. Over HTTP, `Accept` with the file's media type or `application/octet-stream` returns the bytes themselves (Content-Disposition: attachment) instead of JSON with base64 content. Recorded as a read of the letter. Unknown letter or file: 404; files deleted by the scan retention: 404 mail_scan_purged.",
  access: MAIL_READ_ACCESS,
  mcpTool: false,
  input: Type.Object(
    {
      id: Id('Letter id.'),
      file: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 1000,
          description: 'Position of the file (item.files[].position); default 1.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      file_name: Type.String({ description: 'The file name.' }),
      media_type: Type.String({ description: 'The media type.' }),
      size_bytes: Type.Integer({ description: 'Size in bytes.' }),
      sha256: Type.String({ description: 'SHA-256 of the content, lowercase hex: compare after download.' }),
      content_base64: Type.String({ description: 'The content, base64.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', file: 1 },
  file: {
    mediaTypes: [...SCAN_MEDIA_TYPES, 'message/rfc822'],
    from: (output) => ({
      filename: output.file_name,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  async run({ ctx, input }) {
    const item = await requireMailItem(ctx.db, ctx.organizationId, input.id);
    const position = input.file ?? 1;
    const file = (await mailItemFiles(ctx.db, ctx.organizationId, [item.id])).find(
      (candidate) => asInt(candidate.position) === position,
    );
    if (!file) throw notFound('File of this letter', 'file');
    const bytes =
      file.scan_id === null ? undefined : await mailScanStore.read(ctx.db, ctx.organizationId, file.scan_id);
    if (bytes === undefined) {
      throw new AppError(
        'mail_scan_purged',
        "The letter's files were deleted by the organization's scan retention.",
        {
          details: { purged_at: item.scan_purged_at },
        },
      );
    }
    await recordMailRead(ctx, item.id);
    return {
      file_name: file.file_name,
      media_type: file.media_type,
      size_bytes: bytes.length,
      sha256: file.sha256,
      content_base64: bytes.toString('base64'),
    };
  },
});
