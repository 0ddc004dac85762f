import { Type } from 'typebox';
import { receiveMailItem } from '../../company-mail/items.ts';
import { checkScanFiles, MAX_SCAN_BYTES, MAX_SCAN_FILES } from '../../company-mail/scan-files.ts';
import { mailScanStore } from '../../company-mail/scans.ts';
import { AppError } from '../../contract/errors.ts';
import { IdempotencyKey, Timestamp } from '../../contract/formats.ts';
import { decodeBase64 } from '../../contractors/template-file.ts';
import { defineOperation } from '../define.ts';
import { MailItem, toMailItem } from './schema.ts';

const ScanFile = Type.Object(
  {
    mediaType: Type.Union(
      [
        Type.Literal('application/pdf'),
        Type.Literal('image/jpeg'),
        Type.Literal('image/png'),
        Type.Literal('image/tiff'),
      ],
      { description: 'application/pdf, image/jpeg, image/png or image/tiff; checked against the bytes.' },
    ),
    fileName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[^/\\\\\\u0000-\\u001f\\u007f]+$',
        description:
          'File name, 1-255 characters, no path separators or control characters; default letter-<n>.<ext>.',
      }),
    ),
    contentBase64: Type.String({
      minLength: 1,
      description: 'The bytes, base64 (RFC 4648, padded, no line breaks).',
    }),
  },
  { additionalProperties: false },
);

export const uploadMailItem = defineOperation({
  name: 'mail.items.upload',
  summary: 'Record a scanned postal letter',
  description: `For a scanning service's key or a member: needs only \`mail:write\`, so a scanning service's key can deliver letters without reading any. One PDF, or 1-${MAX_SCAN_FILES} page images (JPEG, PNG, TIFF), at most ${MAX_SCAN_BYTES} bytes in all (413 payload_too_large). Emits mail.received (ids, channel, dates and counts only).`,
  access: { scopes: ['mail:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  // 20 MiB as base64 is about 26.7 MiB; room for the other fields.
  maxBodyBytes: 28 * 1024 * 1024,
  mcpTool: false,
  input: Type.Object(
    {
      sender: Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'Who sent the letter, 1-300 characters.',
      }),
      subject: Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'What it is about, 1-500 characters.',
      }),
      receivedAt: Timestamp('When the letter was received (ISO 8601); not in the future.'),
      files: Type.Array(ScanFile, {
        minItems: 1,
        maxItems: MAX_SCAN_FILES,
        description: `The scan: one PDF, or the pages as images in order (1-${MAX_SCAN_FILES}).`,
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MailItem,
  example: {
    sender: 'Tax office',
    subject: 'Assessment notice',
    receivedAt: '2026-01-05T09:00:00.000Z',
    files: [
      { mediaType: 'application/pdf', fileName: 'scan.pdf', contentBase64: 'JVBERi0xLjcKJcOkw7zDtsOfCg==' },
    ],
  },
  async run({ ctx, input }) {
    if (new Date(input.receivedAt).getTime() > ctx.clock.now().getTime()) {
      throw new AppError('invalid_input', 'receivedAt is in the future; send when the letter arrived.', {
        field: 'receivedAt',
      });
    }
    const files = input.files.map((file, index) => {
      try {
        return {
          mediaType: file.mediaType,
          fileName: file.fileName,
          bytes: decodeBase64(file.contentBase64),
        };
      } catch (error) {
        if (error instanceof AppError)
          throw new AppError(error.code, error.message, { field: `files.${index}.contentBase64` });
        throw error;
      }
    });
    checkScanFiles(files);
    const { item, files: rows } = await receiveMailItem(ctx, mailScanStore, {
      channel: 'post',
      sender: input.sender,
      subject: input.subject,
      receivedAt: input.receivedAt,
      files,
    });
    return toMailItem(item, rows);
  },
});
