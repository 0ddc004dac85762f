import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import { AppError } from '../contract/errors.ts';
import { assertPdfInflatesWithin, PdfInflateLimitError } from '../files/pdf-inflate-guard.ts';
import { toWinAnsi } from '../invoicing/pdf-text.ts';
import { type Block, parseMarkdown, plainText } from './agreement-markdown.ts';

export interface SignatureFacts {
  agreementId: string;
  title: string;
  fileName: string;
  mediaType: string;
  documentSha256: string;
  signedName: string;
  signedAt: string;
  clientAddress: string;
  consentText: string;
}

const PAGE: [number, number] = [612, 792];
const MARGIN = 56;
const SIZE = 10;
const LEADING = 14;

/** Largest uploaded PDF parsed to append the signature page (uploads are capped at 5 MiB too). */
const MAX_PDF_BYTES = 5 * 1024 * 1024;

class Writer {
  page: PDFPage;
  y = PAGE[1] - MARGIN;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(PAGE);
  }

  /** Wrapped text; `marker` (a list's bullet or number) hangs in the indent of the first line. */
  line(
    text: string,
    options: { bold?: boolean; size?: number; indent?: number; marker?: string } = {},
  ): void {
    const font = options.bold ? this.bold : this.font;
    const size = options.size ?? SIZE;
    const indent = options.indent ?? 0;
    let marker = options.marker;
    for (const part of wrap(toWinAnsi(text), font, size, PAGE[0] - 2 * MARGIN - indent)) {
      if (this.y < MARGIN) this.newPage();
      if (marker !== undefined) {
        this.page.drawText(toWinAnsi(marker), {
          x: MARGIN + indent - LIST_INDENT + 4,
          y: this.y,
          size,
          font,
        });
        marker = undefined;
      }
      if (part !== '') this.page.drawText(part, { x: MARGIN + indent, y: this.y, size, font });
      this.y -= size + (LEADING - SIZE);
    }
  }

  rule(): void {
    if (this.y < MARGIN + LEADING) this.newPage();
    const y = this.y + SIZE / 2;
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE[0] - MARGIN, y }, thickness: 0.5 });
    this.y -= LEADING;
  }

  gap(): void {
    this.y -= LEADING / 2;
  }

  private newPage(): void {
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }
}

const LIST_INDENT = 18;
/** Heading sizes by level: bigger than the body and bold, as on the portal page. */
const HEADING_SIZES = [16, 14, 12, 11, 10, 10] as const;

/** A Markdown draft's blocks drawn with the structure the portal shows (decision 450). */
function drawMarkdown(writer: Writer, blocks: readonly Block[]): void {
  for (const block of blocks) {
    if (block.type === 'heading') {
      writer.gap();
      writer.line(plainText(block.content), { bold: true, size: HEADING_SIZES[block.level - 1] });
      writer.gap();
    } else if (block.type === 'paragraph') {
      writer.line(plainText(block.content).replace(/\n/g, ' '));
      writer.gap();
    } else if (block.type === 'rule') {
      writer.rule();
    } else {
      block.items.forEach((item, index) => {
        const marker = block.ordered ? `${block.start + index}.` : '\u2022';
        writer.line(plainText(item).replace(/\n/g, ' '), { indent: LIST_INDENT, marker });
      });
      writer.gap();
    }
  }
}

function memo(f: (key: string) => number): (key: string) => number {
  const seen = new Map<string, number>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      value = f(key);
      seen.set(key, value);
    }
    return value;
  };
}

/**
 * Lines of at most `width` points. Linear in the text: each word is measured once, and a word longer
 * than a line is cut in one pass that adds each character's width (with its kerning against the
 * previous one) instead of re-measuring the prefix; re-measuring made a 4,000-character word take 26 s.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text === '') return [''];
  const lines: string[] = [];
  let current = '';
  let currentWidth = 0;
  const space = font.widthOfTextAtSize(' ', size);
  for (const word of text.split(' ')) {
    const wordWidth = font.widthOfTextAtSize(word, size);
    const candidateWidth = current === '' ? wordWidth : currentWidth + space + wordWidth;
    if (candidateWidth <= width) {
      current = current === '' ? word : `${current} ${word}`;
      currentWidth = candidateWidth;
      continue;
    }
    if (current !== '') lines.push(current);
    if (wordWidth <= width) {
      current = word;
      currentWidth = wordWidth;
      continue;
    }
    // A single word longer than the line is cut by characters (widths memoized per glyph and pair:
    // WinAnsi text has at most 256 distinct characters).
    const glyphWidth = memo((c: string) => font.widthOfTextAtSize(c, size));
    const pairStep = memo((pair: string) => font.widthOfTextAtSize(pair, size) - glyphWidth(pair.charAt(0)));
    let start = 0;
    let used = 0;
    for (let i = 0; i < word.length; i++) {
      const glyph = glyphWidth(word.charAt(i));
      const step = i === start ? glyph : pairStep(word.slice(i - 1, i + 1));
      if (i > start && used + step > width) {
        lines.push(word.slice(start, i));
        start = i;
        used = glyph;
      } else used += step;
    }
    current = word.slice(start);
    currentWidth = used;
  }
  lines.push(current);
  return lines;
}

/** The original PDF when it parses (bounded, no encryption), else a fresh document. */
async function baseDocument(
  document: Buffer,
  mediaType: string,
): Promise<{ doc: PDFDocument; kept: boolean }> {
  if (mediaType === 'application/pdf' && document.length <= MAX_PDF_BYTES) {
    try {
      assertPdfInflatesWithin(document);
    } catch (error) {
      if (!(error instanceof PdfInflateLimitError)) throw error;
      throw new AppError('invalid_file', `The agreement's PDF cannot be read safely: ${error.message}.`, {
        details: { reason: 'decompression_limit' },
      });
    }
    try {
      return { doc: await PDFDocument.load(document, { updateMetadata: false }), kept: true };
    } catch {
      // Encrypted or malformed: the signed PDF then names the original by its hash instead.
    }
  }
  return { doc: await PDFDocument.create(), kept: false };
}

/**
 * The signed agreement: the document's own pages (a PDF original), or its text (Markdown and
 * plain text), or a page naming it (Word files cannot be rendered here), then a signature page
 * with who signed, when, from which client address, and the SHA-256 of the exact bytes signed.
 */
export async function renderSignedPdf(document: Buffer, facts: SignatureFacts): Promise<Buffer> {
  const { doc, kept } = await baseDocument(document, facts.mediaType);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  if (!kept) {
    const writer = new Writer(doc, font, bold);
    writer.line(facts.title, { bold: true, size: 16 });
    writer.gap();
    if (facts.mediaType === 'text/markdown') {
      drawMarkdown(writer, parseMarkdown(document.toString('utf8')));
    } else if (facts.mediaType === 'text/plain') {
      for (const raw of document.toString('utf8').replace(/\r\n?/g, '\n').split('\n')) writer.line(raw);
    } else {
      writer.line(`The signed document is the file "${facts.fileName}" (${facts.mediaType}),`);
      writer.line(`identified by its SHA-256 ${facts.documentSha256}; it is kept with this record.`);
    }
  }
  const sign = new Writer(doc, font, bold);
  sign.line('Signature page', { bold: true, size: 16 });
  sign.gap();
  sign.line(`Agreement: ${facts.title}`);
  sign.line(`Agreement id: ${facts.agreementId}`);
  sign.line(`Document: ${facts.fileName} (${facts.mediaType})`);
  sign.line(`Document SHA-256: ${facts.documentSha256}`);
  sign.gap();
  sign.line(`Signed by: ${facts.signedName}`, { bold: true });
  sign.line(`Signed at (UTC): ${facts.signedAt}`);
  sign.line(`Client address: ${facts.clientAddress}`);
  sign.gap();
  sign.line(`Consent: ${facts.consentText}`);
  const bytes = await doc.save({ useObjectStreams: false });
  return Buffer.from(bytes);
}
