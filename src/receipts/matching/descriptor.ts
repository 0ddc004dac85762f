// Normalization of bank descriptors and receipt merchant names into comparable tokens.
//
// Banks print the payment processor before the merchant (`SQ *`, `PAYPAL *`), append store
// numbers, phone numbers, cities and country codes, and cut the whole line at 22-25 characters.
// Receipts print legal forms (`GmbH`, `S.A.`) and OCR adds accents and case noise. Both sides are
// reduced to lowercase ASCII words with that noise removed.

/**
 * Processor prefixes whose merchant follows the prefix (`PAYPAL *SPOTIFY` is Spotify). Matched at
 * the start of the normalized upper-case text, longest first.
 */
const PROCESSOR_PREFIXES = [
  'APPLE.COM/BILL',
  'GOOGLE *',
  'PAYPAL *',
  'SUMUP *',
  'SQU*',
  'SQ *',
  'SQ*',
  'PP*',
  'SP *',
  'SP*',
  'TST*',
  'TST *',
  'IZ *',
  'IZ*',
  'ZTL*',
  'CRV*',
  'SMP*',
  'STRIPE *',
  'KLARNA*',
  'UBR*',
  'DRI*',
  'FS *',
  'PY *',
].sort((a, b) => b.length - a.length);

/** Descriptors that name the merchant in a code; the rest of the line is a reference. */
const BRAND_CODES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(AMZN|AMAZON)( MKTP| MKTPLACE| MARKETPLACE| DIGITAL| PRIME| RETAIL| EU)?\b.*/, 'amazon'],
  [/^APPLE\.COM\/BILL.*/, 'apple'],
  [/^FACEBK \*.*/, 'facebook'],
];

/** Legal forms and filler words that say nothing about which merchant it is. */
const NOISE_WORDS = new Set([
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'co',
  'ug',
  'ohg',
  'ltd',
  'limited',
  'inc',
  'llc',
  'plc',
  'corp',
  'sarl',
  'sas',
  'sa',
  'srl',
  'spa',
  'bv',
  'nv',
  'ab',
  'as',
  'oy',
  'se',
  'the',
  'und',
  'and',
  'www',
  'com',
  'net',
  'org',
  'de',
  'eu',
  'uk',
  'us',
  'fr',
  'nl',
  'es',
  'it',
  'at',
  'ch',
  'ie',
  'store',
  'shop',
  'filiale',
  'fil',
  'pending',
  'pos',
  'purchase',
  'card',
  'visa',
  'debit',
]);

/** Cities commonly appended by card networks; dropped only after the first word. */
const CITY_WORDS = new Set([
  'berlin',
  'hamburg',
  'munchen',
  'muenchen',
  'koln',
  'frankfurt',
  'london',
  'paris',
  'madrid',
  'amsterdam',
  'wien',
  'zurich',
  'dublin',
  'san',
  'francisco',
  'new',
  'york',
  'ny',
  'ca',
  'sf',
  'la',
  'seattle',
  'lisboa',
  'barcelona',
  'luxembourg',
  'dublin',
  'cork',
  'tallinn',
  'stockholm',
  'koeln',
  'dusseldorf',
  'stuttgart',
  'leipzig',
]);

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
