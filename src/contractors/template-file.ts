import { AppError } from '../contract/errors.ts';

/** Media types an uploaded original may have (PDF, Word .docx and .doc, plain text, Markdown). */
export const UPLOAD_MEDIA_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
  'text/plain',
  'text/markdown',
] as const;
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[number];

/** Largest template content, decoded: 5 MiB. */
export const MAX_TEMPLATE_BYTES = 5 * 1024 * 1024;

/** The refusal of a `contentBase64` that is not padded base64 without line breaks. */
export function invalidBase64(): AppError {
  return new AppError('invalid_file', 'contentBase64 is not valid base64 (padded, without line breaks).', {
    field: 'contentBase64',
  });
}

/**
 * Strict base64 (RFC 4648 section 4, padded, no whitespace or line breaks). Node's decoder skips
 * characters it does not know, so the text is checked first. Plain scans, no backtracking regex:
 * the input can be 7 MB.
 */
export function decodeBase64(text: string): Buffer {
  if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) throw invalidBase64();
  const padding = text.indexOf('=');
  if (padding !== -1 && (padding < text.length - 2 || (padding === text.length - 2 && text.at(-1) !== '=')))
    throw invalidBase64();
  return Buffer.from(text, 'base64');
}

const PDF = Buffer.from('%PDF-', 'latin1');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The content must be what `mediaType` says: PDF files start with `%PDF-`, .docx files are ZIP
 * archives (`PK\x03\x04`), .doc files are OLE2 compound files (`D0 CF 11 E0 A1 B1 1A E1`), and
 * text and Markdown are valid UTF-8 without NUL bytes. Empty and oversized files are refused too.
 */
export function checkFile(content: Buffer, mediaType: UploadMediaType): void {
  if (content.length === 0)
    throw new AppError('invalid_file', 'The file is empty.', { field: 'contentBase64' });
  if (content.length > MAX_TEMPLATE_BYTES)
    throw new AppError('payload_too_large', `The file exceeds ${MAX_TEMPLATE_BYTES} bytes.`, {
      field: 'contentBase64',
    });
  const mismatch = (what: string) =>
    new AppError('invalid_file', `The file is not ${what} (its content does not match ${mediaType}).`, {
      field: 'contentBase64',
    });
  switch (mediaType) {
    case 'application/pdf':
      if (!startsWith(content, PDF)) throw mismatch('a PDF document');
      return;
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      if (!startsWith(content, ZIP)) throw mismatch('a Word (.docx) document');
      return;
    case 'application/msword':
      if (!startsWith(content, OLE2)) throw mismatch('a Word (.doc) document');
      return;
    case 'text/plain':
    case 'text/markdown':
      if (!isText(content)) throw mismatch('UTF-8 text');
      return;
  }
}

function startsWith(content: Buffer, magic: Buffer): boolean {
  return content.length >= magic.length && content.subarray(0, magic.length).equals(magic);
}

function isText(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    utf8.decode(content);
    return true;
  } catch {
    return false;
  }
}
