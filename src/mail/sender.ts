import { MailConfigError } from './errors.ts';
import { hasControlCharacter, isBareAddress } from './message.ts';

export const DEFAULT_MAIL_FROM = 'Accounting <no-reply@localhost>';

// `Name <address>` or `"Name, Inc." <address>`: an unquoted comma or semicolon would turn
// the value into an address list, so such a name has to be quoted.
const NAMED_ADDRESS = /^(?:"[^"\\<>]*"|[^"<>,;]*)\s*<([^<>]+)>$/;

/**
 * The sender for every message: `MAIL_FROM` when given, else the default. Checked once at
 * startup, because a sender with a line break would inject headers into every message and
 * an unparsable one would make every delivery fail far from its cause.
 */
export function resolveSender(from: string | undefined): string {
  const sender = from?.trim() || DEFAULT_MAIL_FROM;
  const address = NAMED_ADDRESS.exec(sender)?.[1] ?? sender;
  if (hasControlCharacter(sender) || !isBareAddress(address)) {
    throw new MailConfigError('MAIL_FROM must be an address or "Name <address>" on one line');
  }
  return sender;
}
