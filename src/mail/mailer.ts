import type { MailMessage } from './message.ts';
import { createOutboxMailer, type MailLogger, type OutboxStore } from './outbox-mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

export { MailConfigError, MailDeliveryError } from './errors.ts';
export {
  createOutboxMailer,
  type MailLogger,
  type OutboxMailerOptions,
  type OutboxMeta,
  type OutboxStore,
} from './outbox-mailer.ts';
export { DEFAULT_MAIL_FROM } from './sender.ts';
export { createSmtpMailer, type SmtpMailerOptions } from './smtp-mailer.ts';

export type MailTransportKind = 'smtp' | 'outbox';

export type MailSendResult = { transport: MailTransportKind; messageId: string };

export interface Mailer {
  /**
   * Sends (SMTP) or stores (outbox) one message. Rejects with InvalidMailMessageError before
   * anything happens, with MailDeliveryError when the SMTP server did not take the message.
   */
  send(message: MailMessage): Promise<MailSendResult>;
}

/** Only the variables the mail layer reads; `process.env` fits. */
export type MailEnv = { readonly SMTP_URL?: string | undefined; readonly MAIL_FROM?: string | undefined };

export type MailerDeps = { store: OutboxStore; logger: MailLogger };

/**
 * SMTP when `SMTP_URL` is set (a blank value counts as unset), otherwise the outbox. The
 * choice is made once at startup and logged, so a laptop user sees where mail goes.
 */
export function createMailerFromEnv(env: MailEnv, deps: MailerDeps): Mailer {
  const url = env.SMTP_URL?.trim();
  if (url) {
    const mailer = createSmtpMailer({ url, from: env.MAIL_FROM });
    deps.logger.info({ mail: { transport: 'smtp' } }, 'mail is delivered over SMTP (SMTP_URL)');
    return mailer;
  }
  deps.logger.info({ mail: { transport: 'outbox' } }, 'SMTP_URL is not set: mail is stored in the outbox');
  return createOutboxMailer({ store: deps.store, logger: deps.logger, from: env.MAIL_FROM });
}
