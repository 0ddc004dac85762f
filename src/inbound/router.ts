import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import type { InboundAddressRow } from './addresses.ts';

/**
 * Inbound mail is routed by the purpose of the address it was sent to. Each area registers the
 * handler of its purpose once, in the composition root (`src/services.ts`):
 *
 *   router.register('receipts', receiptsInboundHandler);
 *   router.register('company_mail', companyMailInboundHandler);
 *
 * The listener resolves the recipient to an address row, checks the sender against the
 * organization's members (see `senderMember`), and calls the handler inside one unit of work whose
 * actor is the job `inbound.smtp`; the handler's changes and the message log row commit together.
 */

export interface InboundAttachment {
  fileName: string;
  mediaType: string;
  bytes: Buffer;
}

export interface InboundMessage {
  /** MAIL FROM of the SMTP envelope, lowercased; null for a bounce (`<>`). */
  envelopeFrom: string | null;
  /** The address of the From header, lowercased; null when absent or unreadable. */
  from: string | null;
  subject: string | null;
  messageId: string | null;
  /** ISO timestamp of the Date header, if readable. */
  date: string | null;
  text: string | null;
  html: string | null;
  attachments: InboundAttachment[];
  /** The message as received (RFC 5322 bytes), bounded by the listener's size limit. */
  raw: Buffer;
}

export interface InboundSender {
  /** The From address when it agrees with the envelope sender, else null. */
  email: string | null;
  /** The active member of the address's organization with that e-mail, else null. */
  memberId: string | null;
}

export interface InboundDelivery {
  unit: UnitOfWork;
  address: InboundAddressRow;
  message: InboundMessage;
  sender: InboundSender;
}

/**
 * `accepted` with the number of records made (inbox items, mail items); `refused` with a stable
 * reason code (`sender_not_member`, `no_attachments`...). A refused delivery must change nothing:
 * the listener rolls back whatever the handler wrote before refusing.
 */
export type InboundOutcome = { outcome: 'accepted'; items: number } | { outcome: 'refused'; reason: string };

export type InboundHandler = (delivery: InboundDelivery) => Promise<InboundOutcome>;

/**
 * The largest message that can carry `fileBytes` of attachments: base64 (4/3) in 76-character lines
 * (78 with CRLF), plus 64 KiB for headers and a text part. A bigger message can only hold a file
 * the store would refuse, so the listener refuses it at SIZE/DATA instead of reading it.
 */
export function messageBytesFor(fileBytes: number): number {
  return Math.ceil(((fileBytes * 4) / 3) * (78 / 76)) + 64 * 1024;
}

export class InboundRouter {
  readonly #handlers = new Map<string, InboundHandler>();
  readonly #maxMessageBytes = new Map<string, number>();

  /** `maxFileBytes`: what the purpose's store keeps at most (all attachments of one message). */
  register(purpose: string, handler: InboundHandler, options: { maxFileBytes?: number } = {}): void {
    if (!/^[a-z][a-z0-9_]{1,39}$/.test(purpose)) throw new Error(`inbound purpose ${purpose} is not a name`);
    if (this.#handlers.has(purpose)) throw new Error(`inbound purpose ${purpose} is registered twice`);
    this.#handlers.set(purpose, handler);
    if (options.maxFileBytes !== undefined)
      this.#maxMessageBytes.set(purpose, messageBytesFor(options.maxFileBytes));
  }

  /** The largest message worth reading for this purpose; undefined when the purpose sets none. */
  maxMessageBytes(purpose: string): number | undefined {
    return this.#maxMessageBytes.get(purpose);
  }

  /** The largest message any purpose can use (announced with SIZE), or undefined when one sets none. */
  largestMessageBytes(): number | undefined {
    let largest = 0;
    for (const purpose of this.#handlers.keys()) {
      const bytes = this.#maxMessageBytes.get(purpose);
      if (bytes === undefined) return undefined;
      largest = Math.max(largest, bytes);
    }
    return largest === 0 ? undefined : largest;
  }

  handler(purpose: string): InboundHandler | undefined {
    return this.#handlers.get(purpose);
  }

  purposes(): string[] {
    return [...this.#handlers.keys()].sort();
  }
}

/**
 * The sender check: the From header and the envelope sender must name the same address, and that
 * address must be an active member of the organization. Without DKIM/SPF verification (the mail
 * relay in front of the listener is expected to do that, docs/receipts.md) this is a filter
 * against stray mail, not proof of identity: the address itself stays a secret (rotate it if leaked).
 */
export async function senderMember(
  db: Kysely<Database>,
  organizationId: string,
  message: Pick<InboundMessage, 'from' | 'envelopeFrom'>,
): Promise<InboundSender> {
  const email = message.from !== null && message.from === message.envelopeFrom ? message.from : null;
  if (email === null) return { email: null, memberId: null };
  const member = await db
    .selectFrom('members')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return { email, memberId: member?.id ?? null };
}
