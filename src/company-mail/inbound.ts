import type { InboundHandler } from '../inbound/router.ts';
import { receiveMailItem } from './items.ts';
import { mailScanStore } from './scans.ts';

export const COMPANY_MAIL_PURPOSE = 'company_mail';

/** Shown when a message says nothing; never taken from the body. */
const NO_SUBJECT = '(no subject)';

/**
 * Messages to the company mail address become letters (channel `email`): the message as received
 * (message/rfc822) is file 1 and each attachment a further file, so one can be forwarded to the
 * receipt inbox. Unlike the receipts address, outside senders are accepted: company mail is the
 * organization's correspondence (a bank, a tax office); the address token is the secret, rotated
 * with mail.address.rotate. Bounces (empty MAIL FROM) are refused. The arrival time is the
 * listener's clock, not the Date header a sender writes.
 */
export const companyMailInboundHandler: InboundHandler = async ({ unit, message }) => {
  if (message.envelopeFrom === null) return { outcome: 'refused', reason: 'bounce' };
  await receiveMailItem(unit, mailScanStore, {
    channel: 'email',
    sender: (message.from ?? message.envelopeFrom).slice(0, 300),
    subject: (message.subject?.trim() || NO_SUBJECT).slice(0, 500),
    receivedAt: unit.clock.now().toISOString(),
    files: [
      { mediaType: 'message/rfc822', fileName: 'message.eml', bytes: message.raw },
      ...message.attachments.map((attachment) => ({
        mediaType: attachment.mediaType,
        fileName: attachment.fileName,
        bytes: attachment.bytes,
      })),
    ],
  });
  return { outcome: 'accepted', items: 1 };
};
