import { ExtractionFailure } from './types.ts';

// File type by magic bytes at offset 0, checked against what the name and media type claim.
// Polyglots are refused: a PDF that carries data after its last %%EOF (a ZIP glued on), or an
// image or XML that holds a PDF header, is a file built to be read two ways.

export type FileType = 'pdf' | 'png' | 'jpeg' | 'webp' | 'xml';

function detect(bytes: Buffer): FileType | 'zip' | 'other' {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  if (bytes.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return 'zip';
  const head = bytes
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<?xml') || /^<[A-Za-z_!]/.test(head)) return 'xml';
  return 'other';
}

const byMediaType: Record<string, FileType> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/webp': 'webp',
  'application/xml': 'xml',
  'text/xml': 'xml',
};
const byExtension: Record<string, FileType> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  xml: 'xml',
};

/** Media types that say nothing about the content, so only the bytes and the name decide. */
const unspecific = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export function sniffType(bytes: Buffer, fileName: string, mediaType: string): FileType {
  const detected = detect(bytes);
  const media = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const claimedByMedia = unspecific.has(media)
    ? undefined
    : (byMediaType[media] ?? (media.endsWith('+xml') ? 'xml' : null));
  const claimedByName = ext === '' ? undefined : (byExtension[ext] ?? null);
  if (detected === 'zip' || detected === 'other') {
    if (claimedByMedia || claimedByName) {
      throw new ExtractionFailure(
        'type_mismatch',
        `the content is not the ${claimedByMedia ?? claimedByName} its name or type claims`,
      );
    }
    throw new ExtractionFailure(
      'unsupported_type',
      'receipts are read from PDF, PNG, JPEG, WebP and XML files',
    );
  }
  if (claimedByMedia === null || claimedByName === null) {
    throw new ExtractionFailure('unsupported_type', `unsupported file type ${media || ext}`);
  }
  for (const claim of [claimedByMedia, claimedByName]) {
    if (claim !== undefined && claim !== detected) {
      throw new ExtractionFailure(
        'type_mismatch',
        `the content is ${detected}, but the name or media type says ${claim}`,
      );
    }
  }
  assertNotPolyglot(bytes, detected);
  return detected;
}

function assertNotPolyglot(bytes: Buffer, type: FileType): void {
  if (type === 'pdf') {
    const eof = bytes.lastIndexOf('%%EOF');
    const trailer = eof === -1 ? '' : bytes.subarray(eof + 5).toString('latin1');
    // Writers add a newline or a few NULs after %%EOF; anything more is a second file.
    if (eof === -1 || trailer.replace(/[\s\0]/g, '').length > 0) {
      throw new ExtractionFailure(
        'type_mismatch',
        'data after the PDF end marker (a polyglot file) is refused',
      );
    }
    return;
  }
  // A ZIP is recognised by its end-of-central-directory record, which sits in the last 64 KB; a
  // 4-byte local header signature anywhere would also match compressed pixel data by chance.
  const zipAppended = type !== 'xml' && bytes.subarray(-65_557).includes('PK\x05\x06');
  if (bytes.includes('%PDF-') || zipAppended) {
    throw new ExtractionFailure(
      'type_mismatch',
      `a ${type} file that embeds another file type (a polyglot) is refused`,
    );
  }
}
