import { inflateSync } from 'node:zlib';

/**
 * Caps what a PDF's compressed streams may inflate to BEFORE a PDF library reads it. pdf-lib's
 * `PDFDocument.load` inflates every object stream with no limit (a 0.5 MB file inflating to 500 MiB
 * took 12 s and 700 MB), so each `stream ... endstream` body is inflated here first with zlib's
 * `maxOutputLength`, which stops at the cap instead of allocating the whole output. Bodies that are
 * not zlib data (images, other filters) are skipped: they fail at once.
 */
export interface PdfInflateLimits {
  /** Largest inflated size of one stream. */
  perStream: number;
  /** Largest inflated size of all streams together. */
  total: number;
}

export const PDF_INFLATE_LIMITS: PdfInflateLimits = { perStream: 16 * 1024 * 1024, total: 64 * 1024 * 1024 };

export class PdfInflateLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfInflateLimitError';
  }
}

const STREAM = /stream\r?\n/g;

/** Throws PdfInflateLimitError when a stream (or all of them) would inflate past the limits. */
export function assertPdfInflatesWithin(pdf: Buffer, limits: PdfInflateLimits = PDF_INFLATE_LIMITS): void {
  const text = pdf.toString('latin1');
  let total = 0;
  STREAM.lastIndex = 0;
  for (let m = STREAM.exec(text); m !== null; m = STREAM.exec(text)) {
    if (text.startsWith('end', m.index - 3)) continue; // the `endstream` keyword itself
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    STREAM.lastIndex = end + 9;
    const body = pdf.subarray(start, end);
    if (body.length < 2 || (body[0] ?? 0) % 16 !== 8) continue; // not a zlib header (CM = 8)
    let inflated: number;
    try {
      inflated = inflateSync(body, { maxOutputLength: limits.perStream + 1, finishFlush: 2 }).length;
    } catch (error) {
      if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new PdfInflateLimitError(
          `a compressed stream of the PDF inflates past ${limits.perStream} bytes; such files are refused unread`,
        );
      }
      continue; // not zlib after all, or damaged: the PDF library decides what to make of it
    }
    if (inflated > limits.perStream) {
      throw new PdfInflateLimitError(
        `a compressed stream of the PDF inflates past ${limits.perStream} bytes; such files are refused unread`,
      );
    }
    total += inflated;
    if (total > limits.total) {
      throw new PdfInflateLimitError(
        `the compressed streams of the PDF inflate past ${limits.total} bytes together; such files are refused unread`,
      );
    }
  }
}
