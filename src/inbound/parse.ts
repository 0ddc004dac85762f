import type { AddressObject } from 'mailparser';
import type { InboundAttachment, InboundMessage } from './router.ts';

/** At most this many attachments of one message are looked at; the rest are dropped. */
export const MAX_ATTACHMENTS = 20;

function firstAddress(value: AddressObject | AddressObject[] | undefined): string | null {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  for (const group of list) {
    for (const entry of group.value) {
      if (entry.address) return entry.address.toLowerCase();
    }
  }
  return null;
}

/**
 * Reads a received message. The raw bytes are already bounded by the listener's size limit, so
 * mailparser works on a bounded input; HTML is kept as text only up to a cap.
 */
export async function parseInbound(raw: Buffer, envelopeFrom: string | null): Promise<InboundMessage> {
  // mailparser (and its HTML and charset modules, over 15 MB resident) loads with the first message.
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(raw, { skipImageLinks: true, maxHtmlLengthToParse: 2_000_000 });
  const attachments: InboundAttachment[] = parsed.attachments
    .filter((a) => a.contentDisposition !== 'inline' || a.filename !== undefined)
    .slice(0, MAX_ATTACHMENTS)
    .map((a, index) => ({
      fileName: a.filename ?? `attachment-${index + 1}`,
      mediaType: a.contentType || 'application/octet-stream',
      bytes: a.content,
    }));
  return {
    envelopeFrom: envelopeFrom ? envelopeFrom.toLowerCase() : null,
    from: firstAddress(parsed.from),
    subject: parsed.subject ?? null,
    messageId: parsed.messageId ?? null,
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null,
    text: parsed.text ?? null,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    attachments,
    raw,
  };
}
