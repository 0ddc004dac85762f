// Normalization of bank descriptors and receipt merchant names into comparable tokens.
//
// Banks print the payment processor before the merchant (`SQ *`, `PAYPAL *`), append store
// numbers, phone numbers, cities and country codes, and cut the whole line at 22-25 characters.
// Receipts print legal forms (`GmbH`, `S.A.`) and OCR adds accents and case noise. Both sides are
// reduced to lowercase ASCII words with that noise removed.

import { BRAND_CODES, CITY_WORDS, NOISE_WORDS, PROCESSOR_PREFIXES } from './word-lists.ts';

function foldAccents(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss');
}

/** Removes a leading processor prefix; returns the upper-case rest. */
export function stripProcessorPrefix(text: string): string {
  const upper = foldAccents(text).toUpperCase().trim().replace(/\s+/g, ' ');
  for (const [pattern, brand] of BRAND_CODES) {
    if (pattern.test(upper)) return brand.toUpperCase();
  }
  for (const prefix of PROCESSOR_PREFIXES) {
    if (upper.startsWith(prefix)) return upper.slice(prefix.length).trim();
  }
  return upper;
}

/**
 * The words of a processor prefix that names a brand people get receipts from (`PAYPAL *` ->
 * `paypal`), empty when the descriptor has none: kept as evidence for the processor's own receipt.
 */
export function processorPrefixTokens(text: string): string[] {
  const upper = foldAccents(text).toUpperCase().trim().replace(/\s+/g, ' ');
  const prefix = PROCESSOR_PREFIXES.find((p) => upper.startsWith(p));
  if (prefix === undefined) return [];
  return words(prefix).filter((w) => w.length >= 4);
}

function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      // `S.à r.l.` (accents are already folded) is one legal form, not the words `s`, `a`, `rl`.
      .replace(/\bs\.?\s?a\.?\s?r\.?\s?l\b\.?/g, ' ')
      // `S.A.` and `A.G.` become `sa`, `ag` before punctuation splits words.
      .replace(/\b([a-z])\.([a-z])\.?(?=\s|$)/g, '$1$2')
      .replace(/\.(com|de|net|org|co\.uk|eu|io)\b/g, ' ')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(' ')
      .filter((w) => w.length > 0)
  );
}

/** Words that carry the merchant's name: no numbers, legal forms, or (after the first) cities. */
function meaningfulWords(all: string[]): string[] {
  return all.filter((w, i) => {
    if (/\d/.test(w)) return false;
    if (NOISE_WORDS.has(w)) return false;
    if (i > 0 && CITY_WORDS.has(w)) return false;
    return w.length > 1 || i === 0;
  });
}

/** Tokens of a bank descriptor, processor prefix and noise removed. */
export function descriptorTokens(text: string): string[] {
  return meaningfulWords(words(stripProcessorPrefix(text)));
}

const OCR_DIGITS: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', '5': 's', '8': 'b' };

/** `Sp0tify` -> `spotify`: one digit inside a word of letters is an OCR slip on a printed name. */
function repairOcrDigits(word: string): string {
  const digits = word.replace(/[^0-9]/g, '');
  if (digits.length !== 1 || word.length < 4 || !/^[a-z]*[0158][a-z]*$/.test(word)) return word;
  return word.replace(/[0158]/, (d) => OCR_DIGITS[d] ?? d);
}

/** Tokens of a merchant name as printed on a receipt. */
export function merchantTokens(text: string): string[] {
  return meaningfulWords(words(foldAccents(text)).map(repairOcrDigits));
}

/** `SQ *BLUE BOTTLE COFFEE 415-555` -> `blue bottle coffee`. */
export function normalizeDescriptor(text: string): string {
  return descriptorTokens(text).join(' ');
}

/** `Blue Bottle Coffee, Inc.` -> `blue bottle coffee`. */
export function normalizeMerchant(text: string): string {
  return merchantTokens(text).join(' ');
}
