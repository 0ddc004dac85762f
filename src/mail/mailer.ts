import type { MailMessage } from './message.ts';

export { MailConfigError, MailDeliveryError } from './errors.ts';
export { DEFAULT_MAIL_FROM } from './sender.ts';
export { createSmtpMailer, type SmtpMailerOptions } from './smtp-mailer.ts';

export type MailSendResult = { transport: 'smtp'; messageId: string };

/**
 * Puts one message on the wire. Rejects with InvalidMailMessageError before anything happens,
 * with MailDeliveryError when the SMTP server did not take the message. Without SMTP, mail is
 * kept in the database outbox instead (src/mail/outbox-queue.ts).
 */
export interface Mailer {
  send(message: MailMessage): Promise<MailSendResult>;
}
