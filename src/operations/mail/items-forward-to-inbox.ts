import { Type } from 'typebox';
import { changeMailItem, currentMailItem, mailItemFiles } from '../../company-mail/items.ts';
import { mailScanStore } from '../../company-mail/scans.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { asInt } from '../../db/values.ts';
import { createInboxItem } from '../../receipts/inbox/intake.ts';
import { defineOperation } from '../define.ts';
import { MailItem, toMailItem } from './schema.ts';

export const forwardMailItemToInbox = defineOperation({
  name: 'mail.items.forwardToInbox',
  summary: 'Make a letter that is a bill a receipt inbox item',
  description:
    'One file of the letter (a PDF, an image or an e-invoice attachment) becomes a receipt inbox item (source mail_forward), processed like any upload. It creates an accounting record, so it needs accounting:write besides the mail scopes. The letter keeps a link to the item (forwarded_inbox_item_id); a letter is forwarded once (409 invalid_state). A file the inbox does not take: 400 invalid_file. The same bytes already in the inbox: that item is linked, nothing new is made.',
  access: { scopes: ['mail:read', 'mail:write', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Letter id.'),
      expectedRevision: Revision(),
      file: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 1000,
          description: 'Position of the file to forward; default 1.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      item: MailItem,
      inbox_item_id: Id('The receipt inbox item (inbox.get).'),
      duplicate: Type.Boolean({ description: 'true when the same bytes were already an inbox item.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', expectedRevision: 1, file: 1 },
  async run({ ctx, input }) {
    const item = await currentMailItem(ctx, input.id, input.expectedRevision);
    if (item.forwarded_inbox_item_id !== null) {
      throw new AppError('invalid_state', 'The letter was already forwarded to the receipt inbox.', {
        details: { state: 'forwarded', inbox_item_id: item.forwarded_inbox_item_id },
      });
    }
    const position = input.file ?? 1;
    const files = await mailItemFiles(ctx.db, ctx.organizationId, [item.id]);
    const file = files.find((candidate) => asInt(candidate.position) === position);
    if (!file) throw notFound('File of this letter', 'file');
    const bytes =
      file.scan_id === null ? undefined : await mailScanStore.read(ctx.db, ctx.organizationId, file.scan_id);
    if (bytes === undefined) {
      throw new AppError(
        'mail_scan_purged',
        "The letter's files were deleted by the organization's scan retention.",
      );
    }
    const { receipt, duplicate } = await createInboxItem(ctx, {
      bytes,
      fileName: file.file_name,
      mediaType: file.media_type,
      source: 'mail_forward',
      receivedBy: `member:${ctx.principal.memberId}`,
    });
    const updated = await changeMailItem(ctx, item, { forwarded_inbox_item_id: receipt.id });
    return { item: toMailItem(updated, files), inbox_item_id: receipt.id, duplicate };
  },
});
