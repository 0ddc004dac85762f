import { createTransport, type NodemailerError } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import { MailConfigError, MailDeliveryError } from './errors.ts';
import type { Mailer } from './mailer.ts';
import { assertValidMailMessage, type MailMessage } from './message.ts';
import { resolveSender } from './sender.ts';

export type SmtpMailerOptions = {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465` (TLS from the start). */
  url: string;
  /** Sender of every message; `Accounting <no-reply@localhost>` when omitted. */
  from?: string | undefined;
};

// Short enough that a dead server fails a send within seconds, so the caller can keep the
// message for a retry instead of holding a job for nodemailer's defaults (2 and 10 minutes).
// Query parameters of the URL (`?connectionTimeout=...`) still override them.
const TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 60_000,
  dnsTimeout: 10_000,
} as const;

/**
 * Delivers over SMTP, one connection per message (no pool): mail is rare here, and a
 * pool would hold sockets that shutdown has to close and queue messages only in memory.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const from = resolveSender(options.from);
  // An explicit SMTPTransport rather than createTransport(url): URL query parameters such
  // as `pool=true` or `jsonTransport=true` would otherwise pick another transport, and a
  // JSON transport "sends" by discarding the message.
  const transport = new SMTPTransport({ ...TIMEOUTS, url: checkedUrl(options.url) });
  const transporter = createTransport(transport, { from });

  return {
    async send(message: MailMessage) {
      assertValidMailMessage(message);
      try {
        const info = await transporter.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments?.map(({ filename, contentType, content }) => ({
            filename,
            contentType,
            content,
          })),
        });
        return { transport: 'smtp', messageId: info.messageId };
      } catch (error) {
        throw deliveryError(error);
      }
    },
  };
}

// The URL carries the SMTP password: errors name the problem, never the value.
function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MailConfigError('SMTP_URL is not a valid URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new MailConfigError('SMTP_URL must start with smtp:// or smtps://');
  }
  if (url.hostname === '') throw new MailConfigError('SMTP_URL must name a host');
  return raw;
}

function deliveryError(error: unknown): MailDeliveryError {
  const failure: NodemailerError = error instanceof Error ? error : new Error(String(error));
  const code = failure.code;
  // Only a 5xx reply to the envelope or the message itself refuses this message for good;
  // a 5xx to AUTH is a configuration problem, after whose fix the same message can go out.
  const permanent = failure.permanent === true && (code === 'EENVELOPE' || code === 'EMESSAGE');
  return new MailDeliveryError(
    `SMTP delivery failed (${code ?? 'unknown error'}): ${failure.message}; the message was not sent`,
    { code, permanent, cause: error },
  );
}
