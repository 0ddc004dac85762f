/**
 * A readable merchant name from what the bank wrote: card-processor prefixes, terminal and
 * reference numbers, dates and trailing location codes removed. The bank's text itself is kept
 * unchanged in `description`; this is only for people and for matching receipts.
 */
const PREFIXES = [
  /^(card|debit card|visa|mastercard|maestro|pos|eftpos|contactless)\s*(purchase|payment|transaction)?\s*[-:*]?\s*/i,
  /^(kartenzahlung|lastschrift|gutschrift|überweisung|ueberweisung|paiement par carte|cb|carte)\s*[-:*]?\s*/i,
  /^(sq|sp|tst|pp|paypal|zettle|sumup|iz|izettle)\s*\*\s*/i,
];
const NOISE = [
  /\b\d{2}[./-]\d{2}([./-]\d{2,4})?\b/g, // dates
  /\b\d{2}:\d{2}(:\d{2})?\b/g, // times
  /#?\b[0-9]{5,}\b/g, // terminal, card and reference numbers
  /\b(x{2,}|\*{2,})\d{4}\b/gi, // masked card numbers
];

export function cleanMerchant(description: string, counterpartyName: string | null): string {
  const source = counterpartyName?.trim() ? counterpartyName : description;
  let text = source.replace(/\s+/g, ' ').trim();
  for (const prefix of PREFIXES) text = text.replace(prefix, '');
  for (const noise of NOISE) text = text.replace(noise, ' ');
  text = text
    .replace(/\s*\*+\s*/g, ' ') // processor separators ("UBER *TRIP")
    .replace(/\s+[A-Z]{2}$/u, '') // trailing country code ("... BERLIN DE")
    .replace(/[\s*,;:/-]+$/u, '')
    .replace(/^[\s*,;:/-]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  const result = text.length > 0 ? text : source.replace(/\s+/g, ' ').trim();
  return result.slice(0, 200);
}

/** Text compared by the dedupe: case and whitespace folded. */
export function dedupeText(description: string): string {
  return description.replace(/\s+/g, ' ').trim().toLowerCase();
}
