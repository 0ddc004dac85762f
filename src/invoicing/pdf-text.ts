import { formatScaledDecimal } from '../lib/decimal.ts';
import { parseQuantity, parseTaxRate, QUANTITY_SCALE, TAX_RATE_SCALE } from './totals.ts';

/** Code points outside Latin-1 that the WinAnsi encoding of the standard PDF fonts still has. */
const WIN_ANSI_EXTRAS = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

function encodable(codePoint: number, keepNewlines: boolean): boolean {
  if (codePoint === 0x0a) return keepNewlines;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return false;
  return codePoint <= 0xff || WIN_ANSI_EXTRAS.has(codePoint);
}

/**
 * The built-in Helvetica only has WinAnsi glyphs; pdfkit would write other characters as
 * garbage bytes. Compose accents first (NFC) so "é" typed as e + U+0301 survives, then show
 * anything still unencodable as "?" so the damage is visible rather than silent.
 */
export function toWinAnsi(text: string, keepNewlines = false): string {
  let result = '';
  for (const char of text.normalize('NFC').replace(/\r\n?/g, '\n')) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (encodable(codePoint, keepNewlines)) result += char;
    else result += codePoint === 0x09 || codePoint === 0x0a ? ' ' : '?';
  }
  return result;
}

/** "1.5000" -> "1.5": quantities print in their shortest exact form. */
export function displayQuantity(quantity: string): string {
  return formatScaledDecimal(parseQuantity(quantity, 'quantity'), QUANTITY_SCALE);
}

/** "8.8750" -> "8.875%"; no rate prints as an empty cell. */
export function displayTaxRate(taxRate: string | undefined): string {
  return taxRate === undefined
    ? ''
    : `${formatScaledDecimal(parseTaxRate(taxRate, 'taxRate'), TAX_RATE_SCALE)}%`;
}
