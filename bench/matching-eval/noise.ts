// The noise banks and document readers add: descriptor prefixes, store numbers, cities, phone
// numbers and truncation on one side; case, legal forms and OCR typos on the other.
import type { Merchant } from './merchants.ts';
import type { Random } from './random.ts';

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** A reference code as processors print them (always with a digit, like `2K4L1`). */
export function referenceCode(rnd: Random, length = rnd.int(4, 8)): string {
  let code = '';
  for (let i = 0; i < length; i++) code += ALNUM[rnd.int(0, ALNUM.length - 1)];
  return /\d/.test(code) ? code : `${code.slice(0, -1)}${rnd.int(0, 9)}`;
}

export function orderNumber(rnd: Random): string {
  const shape = rnd.int(0, 2);
  if (shape === 0) return `${rnd.int(100, 999)}-${rnd.int(1000000, 9999999)}-${rnd.int(1000000, 9999999)}`;
  if (shape === 1) return `10${rnd.int(100000000, 999999999)}`;
  return `INV-${rnd.int(2026, 2026)}-${rnd.int(10000, 99999)}`;
}

/** A bank descriptor for a charge of `merchant`. */
export function descriptorFor(rnd: Random, merchant: Merchant, order: string | null): string {
  let text = rnd
    .pick(merchant.descriptors)
    .replace('{ref}', String(rnd.int(100, 99999)).padStart(rnd.int(3, 5), '0'))
    .replace('{order}', order ?? referenceCode(rnd));
  if (text.includes('*') && /\*$/.test(text)) text += referenceCode(rnd);
  if (rnd.chance(0.2)) text += ` #${rnd.int(10, 9999)}`;
  if (merchant.currency === 'USD' && rnd.chance(0.3))
    text += ` ${rnd.int(200, 999)}-${rnd.int(200, 999)}-${rnd.int(1000, 9999)}`;
  if (merchant.cities.length > 0 && rnd.chance(0.45)) text += ` ${rnd.pick(merchant.cities)}`;
  if (rnd.chance(0.25))
    text += ` ${merchant.currency === 'EUR' ? 'DE' : merchant.currency === 'GBP' ? 'GB' : 'US'}`;
  // Card networks cut the merchant field at 22-25 characters.
  if (text.length > 22 && rnd.chance(0.55)) text = text.slice(0, rnd.int(22, 25)).trimEnd();
  return text;
}

const CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['o', '0'],
  ['O', '0'],
  ['l', '1'],
  ['I', 'l'],
  ['m', 'rn'],
  ['e', 'c'],
  ['a', 'o'],
  ['S', '5'],
  ['B', '8'],
  ['i', 'l'],
];

/** One OCR-like error: a confusable glyph, a dropped letter or two letters swapped. */
export function ocrTypo(rnd: Random, text: string): string {
  const kind = rnd.int(0, 2);
  if (kind === 0) {
    const candidates = CONFUSIONS.filter(([from]) => text.includes(from));
    if (candidates.length > 0) {
      const [from, to] = rnd.pick(candidates);
      return text.replace(from, to);
    }
  }
  const letters = [...text].map((c, i) => [c, i] as const).filter(([c]) => /[A-Za-z]/.test(c));
  if (letters.length < 4) return text;
  const [, at] = rnd.pick(letters.slice(1, -1));
  if (kind === 1) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + (text[at + 1] ?? '') + (text[at] ?? '') + text.slice(at + 2);
}

const LEGAL_FORMS = [' GmbH', ' Ltd', ' Inc.', ' S.A.', ' SARL', ' AG'];

/** The merchant name as a document reader returns it. */
export function receiptMerchantName(rnd: Random, merchant: Merchant): string | null {
  if (rnd.chance(0.05)) return null;
  let name = merchant.name;
  if (rnd.chance(0.25)) name = name.toUpperCase();
  if (rnd.chance(0.1) && !/(GmbH|Ltd|Inc|SARL|AG|SE|LLC|B\.V\.)\b/i.test(name)) name += rnd.pick(LEGAL_FORMS);
  if (rnd.chance(0.12)) name = ocrTypo(rnd, name);
  return name;
}
