/** The mail configuration (SMTP_URL, MAIL_FROM) cannot be used; raised at startup, not per message. */
export class MailConfigError extends Error {
  override readonly name = 'MailConfigError';
}

/**
 * The SMTP server did not take the message. Nothing was sent, so the caller may keep the
 * message (for example in the outbox) and try again later, unless `permanent` says that
 * the server refused this very message and would refuse it again.
 */
export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';
  /** Nodemailer's error code, such as ECONNECTION, ETIMEDOUT, EAUTH or EENVELOPE. */
  readonly code: string | undefined;
  readonly permanent: boolean;

  constructor(message: string, options: { code: string | undefined; permanent: boolean; cause: unknown }) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.permanent = options.permanent;
  }
}
