/** A file sent along with a message; `content` is the exact bytes the recipient receives. */
export type MailAttachment = { filename: string; contentType: string; content: Buffer };

/**
 * One outgoing message, the same shape for SMTP delivery and for the outbox, so a message
 * stored on a laptop can later be sent unchanged. `to` holds bare addresses (`a@b.example`),
 * never display names or lists: one entry is exactly one recipient.
 */
export type MailMessage = {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** What kind of mail this is (e.g. `contractor.invitation`), for the outbox and the logs. */
  tags?: { kind: string };
};

/** A message that must not be sent as given; `field` names the offending part. */
export class InvalidMailMessageError extends Error {
  override readonly name = 'InvalidMailMessageError';
  readonly field: string;

  constructor(field: string, reason: string) {
    super(`Invalid mail message: ${field} ${reason}`);
    this.field = field;
  }
}

// The contract's limit for an email field.
const MAX_ADDRESS_LENGTH = 320;
// C0 controls and DEL: CR and LF would let a value start a new header (header injection);
// the others have no business in a header and some relays turn them into line breaks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;
// Deliberately narrower than RFC 5322: no spaces, quotes, brackets, commas or semicolons,
// because nodemailer parses each entry as an address list and any of those could smuggle
// a second recipient or a display name into a single entry.
const BARE_ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** True when `value` can be used as one recipient (or sender) address. */
export function isBareAddress(value: string): boolean {
  return value.length <= MAX_ADDRESS_LENGTH && !hasControlCharacter(value) && BARE_ADDRESS.test(value);
}

/** True when `value` contains a character that must never reach a mail header. */
export function hasControlCharacter(value: string): boolean {
  // search() ignores the global regex's lastIndex, test() would not.
  return value.search(CONTROL_CHARACTERS) !== -1;
}

/** Turns every run of control characters into one space, for text that must fit on one header line. */
export function toSingleLine(value: string): string {
  return value.replace(CONTROL_CHARACTERS, ' ').replace(/ {2,}/g, ' ').trim();
}

/**
 * Refuses a message that cannot be sent safely. Both mailers call it before doing
 * anything, so a bad message is neither delivered nor stored for a later retry.
 */
export function assertValidMailMessage(message: MailMessage): void {
  if (message.to.length === 0) throw new InvalidMailMessageError('to', 'must name at least one recipient');
  message.to.forEach((address, index) => {
    if (!isBareAddress(address)) {
      throw new InvalidMailMessageError(`to[${index}]`, 'must be one bare address without line breaks');
    }
  });
  if (message.subject.trim() === '') throw new InvalidMailMessageError('subject', 'must not be empty');
  if (hasControlCharacter(message.subject)) {
    throw new InvalidMailMessageError('subject', 'must not contain line breaks or control characters');
  }
  if (message.text.trim() === '') throw new InvalidMailMessageError('text', 'must not be empty');
  message.attachments?.forEach((attachment, index) => {
    const field = `attachments[${index}]`;
    if (attachment.filename === '' || /[\\/]/.test(attachment.filename)) {
      throw new InvalidMailMessageError(`${field}.filename`, 'must be a plain file name');
    }
    if (hasControlCharacter(attachment.filename)) {
      throw new InvalidMailMessageError(
        `${field}.filename`,
        'must not contain line breaks or control characters',
      );
    }
    if (!CONTENT_TYPE.test(attachment.contentType)) {
      throw new InvalidMailMessageError(`${field}.contentType`, 'must be a bare type/subtype');
    }
  });
  if (message.tags !== undefined && !/^[a-z0-9][a-z0-9._-]{0,99}$/.test(message.tags.kind)) {
    throw new InvalidMailMessageError('tags.kind', 'must be a short lowercase identifier');
  }
}
