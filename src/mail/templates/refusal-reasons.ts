/** What the finance people can do about each refusal, in words; unknown codes are quoted as they are. */
const REASONS: Readonly<Record<string, string>> = {
  party_email_missing: 'the party has no email address to send it to',
  amount_overflow: 'an amount is larger than the largest supported value',
};

export function refusalReason(errorCode: string): string {
  return REASONS[errorCode] ?? `it was refused (${errorCode})`;
}
