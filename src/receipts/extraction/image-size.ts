import type { FileType } from './sniff.ts';
import { ExtractionFailure } from './types.ts';

// Image dimensions read from the header, before any decoder sees the pixels, so a pixel flood
// (a tiny PNG declaring 50000x50000) is refused without allocating its bitmap.

export function imageSize(bytes: Buffer, type: FileType): { width: number; height: number } {
  const need = (n: number) => {
    if (bytes.length < n) throw new ExtractionFailure('corrupt_file', `${type} header is truncated`);
  };
  if (type === 'png') {
    need(24);
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (type === 'webp') {
    need(30);
    const chunk = bytes.subarray(12, 16).toString('latin1');
    if (chunk === 'VP8 ')
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    throw new ExtractionFailure('corrupt_file', 'unknown WebP chunk');
  }
  if (type === 'jpeg') {
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) throw new ExtractionFailure('corrupt_file', 'JPEG marker expected');
      const marker = bytes[at + 1] ?? 0;
      // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      }
      at += 2 + bytes.readUInt16BE(at + 2);
    }
    throw new ExtractionFailure('corrupt_file', 'JPEG without a frame header');
  }
  throw new ExtractionFailure('unsupported_type', `${type} is not an image`);
}

export function assertImageWithinLimits(bytes: Buffer, type: FileType, maxPixels: number): void {
  const { width, height } = imageSize(bytes, type);
  if (width === 0 || height === 0) throw new ExtractionFailure('corrupt_file', 'image has no pixels');
  if (width * height > maxPixels) {
    throw new ExtractionFailure(
      'too_large',
      `image of ${width}x${height} pixels exceeds ${maxPixels} pixels`,
    );
  }
}
