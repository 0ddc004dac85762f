/**
 * 8-bit statement text: which single-byte code page a file that is not UTF-8 was written in.
 *
 * Banks still export in the code page of the system that made the file: Windows-1252/1250 from
 * Windows, ISO-8859-1/2/15 from Unix, CP437/850/852 from DOS-era cores. The bytes of the file's
 * structure (separators, digits, header labels, MT940 tags) are ASCII in all of them; only the
 * letters of names and descriptions differ. So every candidate decodes the same structure, and the
 * choice is made by which one turns the non-ASCII bytes into words of one language: letters of a
 * single alphabet inside words, in the case of the surrounding letters, with no box drawing, symbol
 * or undefined byte in the middle of a word. Ties go to the most common page (Windows-1252 first).
 * Decoding itself is iconv-lite's (a maintained library with the code page tables).
 */
import iconv from 'iconv-lite';

/** Names as reported in the import's detection; `latin-1` is Windows-1252 (a superset of ISO-8859-1). */
export type CodePage =
  | 'latin-1'
  | 'windows-1250'
  | 'iso-8859-15'
  | 'iso-8859-2'
  | 'cp850'
  | 'cp852'
  | 'cp437';

/** In order of preference when two decode equally well. */
const CANDIDATES: readonly CodePage[] = [
  'latin-1',
  'windows-1250',
  'iso-8859-15',
  'iso-8859-2',
  'cp850',
  'cp852',
  'cp437',
];

const ICONV_NAME: Record<CodePage, string> = {
  'latin-1': 'windows1252',
  'windows-1250': 'windows1250',
  'iso-8859-15': 'iso885915',
  'iso-8859-2': 'iso88592',
  cp850: 'cp850',
  cp852: 'cp852',
  cp437: 'cp437',
};

/** Non-ASCII lowercase letters of the Latin-script languages these code pages were made for. */
const ALPHABETS: readonly string[] = [
  'äöüß', // German
  'àâæçéèêëîïôœùûüÿ', // French
  'áéíóúñü', // Spanish
  'áâãàçéêíóôõú', // Portuguese
  'àèéìíîòóùú', // Italian
  'éèëïóöü', // Dutch
  'æøåäöéðþáíóúý', // Nordic
  'àçèéíïòóúü', // Catalan
  'ąćęłńóśźż', // Polish
  'áčďéěíňóřšťúůýžäĺľôŕ', // Czech and Slovak
  'áéíóöőúüű', // Hungarian
  'čćđšž', // Slovenian, Croatian, Bosnian
  'ăâîșțşţ', // Romanian
  'ëç', // Albanian
];

/** The sample scored: enough lines of names and descriptions, bounded for a large file. */
const SAMPLE_BYTES = 256 * 1024;

/** Decodes `bytes` in `page` (iconv-lite). */
export function decodeCodePage(bytes: Buffer, page: CodePage): string {
  return iconv.decode(bytes, ICONV_NAME[page]);
}

/** A streaming decoder for `page` (CAMT XML is decoded chunk by chunk). */
export function codePageDecoder(page: CodePage): { write(chunk: Buffer): string; end(): string | undefined } {
  return iconv.getDecoder(ICONV_NAME[page]);
}

/**
 * The code page whose decoding reads most like text. A page other than Windows-1252 needs positive
 * evidence (non-ASCII letters in words); without it (a lone accented byte, a currency sign) the file
 * is read as Windows-1252, and null means even that leaves an undefined byte: not text we know.
 */
export function chooseCodePage(bytes: Buffer): CodePage | null {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  let best: CodePage = 'latin-1';
  let bestScore = 0;
  for (const page of CANDIDATES) {
    const score = textScore(decodeCodePage(sample, page));
    if (score > bestScore) {
      best = page;
      bestScore = score;
    }
  }
  if (bestScore > 0) return best;
  return undefinedCount(decodeCodePage(bytes, 'latin-1')) === 0 ? 'latin-1' : null;
}

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const MODIFIER = /[\p{Lm}\p{Sk}]/u;

function isUndefined(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return ch === '\ufffd' || (code >= 0x80 && code <= 0x9f);
}

function undefinedCount(text: string): number {
  let n = 0;
  for (const ch of text) if (isUndefined(ch)) n++;
  return n;
}

/**
 * Scores a decoding: +2 for each non-ASCII letter inside a word that belongs to the alphabet most of
 * them belong to, -1 for an uppercase one after a lowercase letter, -3 for a non-letter inside a word
 * (box drawing, symbols, modifier accents standing alone), -5 for an undefined or C1 control byte.
 */
export function textScore(text: string): number {
  const chars = [...text];
  const inWord: string[] = [];
  let score = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    if (ch.charCodeAt(0) < 0x80) continue;
    if (isUndefined(ch)) {
      score -= 5;
      continue;
    }
    const prev = chars[i - 1] ?? ' ';
    const next = chars[i + 1] ?? ' ';
    const letterBefore = LETTER.test(prev) && !MODIFIER.test(prev);
    const letterAfter = LETTER.test(next) && !MODIFIER.test(next);
    const isLetter = LETTER.test(ch) && !MODIFIER.test(ch);
    if (!isLetter) {
      if (letterBefore && letterAfter) score -= 3;
      continue;
    }
    if (!letterBefore && !letterAfter) continue;
    inWord.push(ch.toLowerCase());
    if (UPPER.test(ch) && LOWER.test(prev)) score -= 1;
  }
  let bestAlphabet = 0;
  for (const alphabet of ALPHABETS) {
    let n = 0;
    for (const ch of inWord) if (alphabet.includes(ch)) n++;
    bestAlphabet = Math.max(bestAlphabet, n);
  }
  return score + 2 * bestAlphabet;
}
