import { Type } from 'typebox';
import { IdempotencyKey } from '../../contract/formats.ts';
import { createInboxItem } from '../../receipts/inbox/intake.ts';
import { defineOperation } from '../define.ts';
import { InboxItem } from '../inbox/schema.ts';
import { toInboxItem } from '../inbox/store.ts';
import { uploadedFile } from '../uploads.ts';

export const uploadReceipt = defineOperation({
  name: 'receipts.upload',
  summary: 'Upload a receipt or invoice into the inbox',
  description:
    'The file as base64, at most 10 MiB decoded: PDF (a Factur-X/ZUGFeRD PDF is read from its embedded XML), JPEG, PNG, WebP, UBL 2.1 or UN/CEFACT CII XML. The type is read from the bytes and must agree with the file name and media type. The same bytes uploaded again (SHA-256) return the existing item with `duplicate: true`. Extraction runs in the background; the item moves from new to processing to ready, needs_review or failed (inbox.get, event receipt.processed).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none', auditOnlyOnChange: true },
  // 10 MiB as base64 is 13 981 016 characters; 15 MiB leaves room for the other fields.
  uploadField: 'contentBase64',
  maxBodyBytes: 15 * 1024 * 1024,
  input: Type.Object(
    {
      fileName: Type.String({ minLength: 1, maxLength: 255, description: 'File name, e.g. receipt.pdf.' }),
      mediaType: Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'application/pdf, image/jpeg, image/png, image/webp, application/xml or text/xml (application/octet-stream lets the bytes decide).',
      }),
      contentBase64: Type.String({
        minLength: 1,
        description: 'The file, base64 (RFC 4648, padded, no line breaks); at most 10 MiB decoded.',
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      item: InboxItem,
      duplicate: Type.Boolean({ description: 'True when these exact bytes were already in the inbox.' }),
    },
    { additionalProperties: false },
  ),
  example: {
    fileName: 'receipt.xml',
    mediaType: 'application/xml',
    contentBase64: Buffer.from(
      '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>R-1</ID></Invoice>',
    ).toString('base64'),
  },
  async run({ ctx, input }) {
    const bytes = uploadedFile(ctx.upload, input.contentBase64);
    const { receipt, duplicate } = await createInboxItem(ctx, {
      bytes,
      fileName: input.fileName,
      mediaType: input.mediaType,
      source: 'upload',
      receivedBy: `member:${ctx.principal.memberId}`,
    });
    return { item: toInboxItem(receipt), duplicate };
  },
});
