import type { Mailer } from './mailer.ts';
import { assertValidMailMessage, type MailMessage } from './message.ts';
import { resolveSender } from './sender.ts';

/** What the outbox row needs besides the message, so that a later SMTP retry sends it unchanged. */
export type OutboxMeta = { from: string; kind: string | null };

/** Stores one message in the database outbox and returns the stored row's id. */
export type OutboxStore = (message: MailMessage, meta: OutboxMeta) => Promise<string>;

/** The part of a pino logger the mail layer uses. */
export type MailLogger = { info(details: Record<string, unknown>, message: string): void };

export type OutboxMailerOptions = {
  store: OutboxStore;
  logger: MailLogger;
  /** Sender recorded with every message; `Accounting <no-reply@localhost>` when omitted. */
  from?: string | undefined;
};

/**
 * Keeps every message in the database instead of sending it, for machines without SMTP.
 * The log line names the message but never carries its body or attachments: bodies hold
 * invitation links, which let whoever reads the log into the contractor portal.
 */
export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  const from = resolveSender(options.from);
  return {
    async send(message: MailMessage) {
      assertValidMailMessage(message);
      const kind = message.tags?.kind ?? null;
      const id = await options.store(message, { from, kind });
      options.logger.info(
        { mail: { id, kind, to: message.to, subject: message.subject } },
        'mail stored in the outbox, not sent (SMTP_URL is not set)',
      );
      return { transport: 'outbox', messageId: id };
    },
  };
}
