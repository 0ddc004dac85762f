import { AppError } from '../../contract/errors.ts';
import type { InboundHandler } from '../../inbound/router.ts';
import { createInboxItem, MAX_RECEIPT_BYTES } from './intake.ts';

/** Each attachment is one inbox file; the inbound router refuses bigger messages before reading them. */
export const RECEIPTS_INBOUND_MAX_FILE_BYTES = MAX_RECEIPT_BYTES;

/**
 * Receipts by e-mail: each attachment of a message from an active member's address becomes an
 * inbox item. A message from anyone else, or with no attachment, is refused (and counted by the
 * listener); an attachment that is not a receipt file (a signature logo in GIF, a .docx) is
 * skipped, and the message is refused when none is left.
 */
export const receiptsInboundHandler: InboundHandler = async ({ unit, message, sender }) => {
  if (sender.memberId === null) return { outcome: 'refused', reason: 'sender_not_member' };
  if (message.attachments.length === 0) return { outcome: 'refused', reason: 'no_attachments' };
  let items = 0;
  let known = 0;
  for (const attachment of message.attachments) {
    try {
      const { duplicate } = await createInboxItem(unit, {
        bytes: attachment.bytes,
        fileName: attachment.fileName,
        mediaType: attachment.mediaType,
        source: 'email',
        receivedBy: `member:${sender.memberId}`,
      });
      if (duplicate) known += 1;
      else items += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  // Every attachment was already in the inbox: accepted (nothing lost), with no new item.
  if (items === 0 && known === 0) return { outcome: 'refused', reason: 'no_receipt_attachments' };
  return { outcome: 'accepted', items };
};
