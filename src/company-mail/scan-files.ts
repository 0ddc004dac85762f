import { AppError } from '../contract/errors.ts';

/** What a scan may be: a PDF, or page images (JPEG, PNG, TIFF). */
export const SCAN_MEDIA_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/tiff'] as const;
export type ScanMediaType = (typeof SCAN_MEDIA_TYPES)[number];

/** One letter's files together; a scanning service's 50-page letter at 300 dpi fits. */
export const MAX_SCAN_BYTES = 20 * 1024 * 1024;
export const MAX_SCAN_FILES = 50;

const SIGNATURES: Record<ScanMediaType, Buffer[]> = {
  'application/pdf': [Buffer.from('%PDF-', 'latin1')],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/tiff': [Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.from([0x4d, 0x4d, 0x00, 0x2a])],
};

/**
 * The bytes must be what the media type says (by their signature: nothing else is parsed), and a
 * letter is one PDF or 1-50 images, at most 20 MiB in all. Messages name the file by position,
 * never by content.
 */
export function checkScanFiles(files: ReadonlyArray<{ mediaType: ScanMediaType; bytes: Buffer }>): void {
  const pdfs = files.filter((file) => file.mediaType === 'application/pdf').length;
  if (pdfs > 0 && files.length > 1) {
    throw new AppError('invalid_file', 'Send one PDF, or the pages as images (JPEG, PNG, TIFF), not both.', {
      field: 'files',
    });
  }
  let total = 0;
  files.forEach((file, index) => {
    const field = `files.${index}.contentBase64`;
    if (file.bytes.length === 0) throw new AppError('invalid_file', `File ${index + 1} is empty.`, { field });
    const matches = SIGNATURES[file.mediaType].some((signature) =>
      file.bytes.subarray(0, signature.length).equals(signature),
    );
    if (!matches) {
      throw new AppError(
        'invalid_file',
        `File ${index + 1} is not a ${file.mediaType} file (its first bytes do not match); allowed: ${SCAN_MEDIA_TYPES.join(', ')}.`,
        { field },
      );
    }
    total += file.bytes.length;
  });
  if (total > MAX_SCAN_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The files add up to ${total} bytes; at most ${MAX_SCAN_BYTES} are accepted.`,
      {
        field: 'files',
      },
    );
  }
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/tiff': 'tif',
  'message/rfc822': 'eml',
};

/** A neutral name (`letter-3.pdf`) when none was given: a name never echoes the content. */
export function defaultFileName(position: number, mediaType: string): string {
  return `letter-${position}.${EXTENSIONS[mediaType] ?? 'bin'}`;
}
