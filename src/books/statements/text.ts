import { isUtf8 } from 'node:buffer';
import { type CodePage, chooseCodePage, codePageDecoder, decodeCodePage } from './code-pages.ts';
import { StatementFileError } from './types.ts';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | CodePage;

/** 1 MiB: no bank writes a line this long; a longer one is a broken or hostile file. */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Refuses a line over 1 MiB by scanning the raw bytes for newlines, before anything is decoded
 * into a string (a 20 MB line costs one pass of memchr, not 40 MB of UTF-16).
 */
export function assertLinesBounded(bytes: Buffer, encoding: TextEncoding | undefined): void {
  const wide = encoding === 'utf-16le' || encoding === 'utf-16be';
  const newline = Buffer.from(
    encoding === 'utf-16be' ? [0x00, 0x0a] : encoding === 'utf-16le' ? [0x0a, 0x00] : [0x0a],
  );
  const limit = wide ? MAX_LINE_BYTES * 2 : MAX_LINE_BYTES;
  const cr = Buffer.from(
    encoding === 'utf-16be' ? [0x00, 0x0d] : encoding === 'utf-16le' ? [0x0d, 0x00] : [0x0d],
  );
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    const at = bytes.indexOf(newline, start);
    const end = at < 0 ? bytes.length : at;
    // Old Mac exports end lines with CR alone: such a run is many short lines, not one long one.
    if (end - start > limit && !crLinesBounded(bytes.subarray(start, end), cr, limit)) {
      throw new StatementFileError(
        'line_too_long',
        `line ${line} is longer than 1 MiB (${end - start} bytes): not a bank statement line`,
      );
    }
    if (at < 0) break;
    start = at + newline.length;
    line++;
  }
}

/** A byte order mark decides the encoding when there is one. */
export function byteOrderMark(bytes: Buffer): { encoding: TextEncoding; bomLength: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  return null;
}

function crLinesBounded(segment: Buffer, cr: Buffer, limit: number): boolean {
  let start = 0;
  for (;;) {
    const at = segment.indexOf(cr, start);
    const end = at < 0 ? segment.length : at;
    if (end - start > limit) return false;
    if (at < 0) return true;
    start = at + cr.length;
  }
}

/**
 * The encoding rule: a BOM decides (UTF-8, UTF-16LE/BE); otherwise UTF-8 if the bytes are valid
 * UTF-8; otherwise the single-byte code page that decodes the text best (code-pages.ts: Windows-1252,
 * reported as `latin-1`, Windows-1250, ISO-8859-2/15, CP850/852/437), if no byte is a control
 * character other than tab/CR/LF/FF/SUB; anything else (NUL bytes, binary, UTF-16 without BOM, bytes
 * no code page makes text of) is `bad_encoding`. No string of the whole file is built here.
 */
export function detectEncoding(bytes: Buffer): { encoding: TextEncoding; bomLength: number } {
  const bom = byteOrderMark(bytes);
  if (bom !== null) return bom;
  const bad = firstControlByte(bytes);
  if (bad >= 0) {
    throw new StatementFileError(
      'bad_encoding',
      `byte ${bad} is 0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')}, a control character: ` +
        'the file is binary, or UTF-16 without a byte order mark; save it as UTF-8 or Latin-1 text',
    );
  }
  if (isUtf8(bytes)) return { encoding: 'utf-8', bomLength: 0 };
  const page = chooseCodePage(bytes);
  if (page === null) {
    const at = bytes.findIndex((b) => b === 0x81 || b === 0x8d || b === 0x8f || b === 0x90 || b === 0x9d);
    throw new StatementFileError(
      'bad_encoding',
      `byte ${at} (0x${(bytes[at] ?? 0).toString(16)}) is neither valid UTF-8 nor a character of a known 8-bit ` +
        'code page in text (Windows-1250/1252, ISO-8859-1/2/15, CP437/850/852); save the file as UTF-8',
    );
  }
  return { encoding: page, bomLength: 0 };
}

/**
 * SOH/STX ... ETX/EOT bytes that frame each message of an MT940 file sent over a bank's file
 * transfer link (SWIFT FIN and its relatives): line breaks once stripped, so the messages read as
 * plain MT940. Returns the bytes unchanged when there is no such byte, or when the text without them
 * is not MT940 (another format with control bytes stays `bad_encoding`).
 */
export function stripTransmissionFraming(bytes: Buffer): Buffer {
  const framing = (b: number) => b === 0x01 || b === 0x02 || b === 0x03 || b === 0x04;
  if (!bytes.some(framing)) return bytes;
  const stripped = Buffer.from(bytes.map((b) => (framing(b) ? 0x0a : b)));
  const head = stripped.subarray(0, 4096).toString('latin1').replace(/^\s+/, '');
  const mt940 = head.startsWith('{1:') || (/^:20:/m.test(head) && /^:(25|60[FM]|61):/m.test(head));
  return mt940 ? stripped : bytes;
}

/** The first few kilobytes as text, leniently (a cut character at the end does not matter). */
export function decodeHead(bytes: Buffer): string {
  const bom = byteOrderMark(bytes);
  const start = bom?.bomLength ?? 0;
  let head = bytes.subarray(start, start + 4096);
  if (bom?.encoding === 'utf-16le' || bom?.encoding === 'utf-16be') {
    head = Buffer.from(bytes.subarray(start, start + 8192 - ((bytes.length - start) % 2)));
    if (head.length % 2 === 1) head = head.subarray(0, head.length - 1);
    if (bom.encoding === 'utf-16be') head.swap16();
    return new TextDecoder('utf-16le').decode(head);
  }
  return new TextDecoder('utf-8').decode(head);
}

function firstControlByte(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a) return i;
  }
  return -1;
}

export function decodeText(bytes: Buffer, encoding: TextEncoding, bomLength: number): string {
  const body = bytes.subarray(bomLength);
  if (encoding === 'utf-16be') {
    // TextDecoder knows utf-16be, but swapping keeps one code path for both byte orders.
    const swapped = Buffer.from(body);
    swapped.swap16();
    return new TextDecoder('utf-16le').decode(swapped);
  }
  if (encoding === 'utf-8' || encoding === 'utf-16le')
    return new TextDecoder(encoding, { fatal: true }).decode(body);
  return decodeCodePage(body, encoding);
}

/** Runs of whitespace (including NBSP and line breaks) become one space; trimmed. */
export function fold(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Lines of a text with their 1-based numbers; CRLF, LF and lone CR all end a line. Lazy, no array. */
export function* lines(text: string): Generator<{ line: string; lineNumber: number }> {
  let start = 0;
  let lineNumber = 1;
  const re = /\r\n|\n|\r/g;
  for (;;) {
    const m = re.exec(text);
    if (m === null) {
      if (start < text.length) yield { line: text.slice(start), lineNumber };
      return;
    }
    yield { line: text.slice(start, m.index), lineNumber };
    start = m.index + m[0].length;
    lineNumber++;
  }
}

/** Joins non-empty parts with ' / ', dropping a part another one already contains. */
export function joinDistinct(parts: Array<string | null | undefined>): string {
  const kept: string[] = [];
  for (const raw of parts) {
    const p = raw === null || raw === undefined ? '' : fold(raw);
    if (p === '') continue;
    if (kept.some((k) => k.includes(p))) continue;
    const covered = kept.findIndex((k) => p.includes(k));
    if (covered >= 0) kept.splice(covered, 1, p);
    else kept.push(p);
  }
  return kept.join(' / ');
}

/** The file decoded 64 KiB at a time, so an XML parser never needs the whole file as one string. */
export function* decodeChunks(bytes: Buffer, encoding: TextEncoding, bomLength: number): Generator<string> {
  const CHUNK = 64 * 1024;
  const wide = encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be';
  const text = wide
    ? new TextDecoder(encoding === 'utf-16be' ? 'utf-16le' : encoding, { fatal: encoding === 'utf-8' })
    : null;
  const page = wide ? null : codePageDecoder(encoding);
  const decode = (chunk: Buffer) =>
    text ? text.decode(chunk, { stream: true }) : (page?.write(chunk) ?? '');
  for (let at = bomLength; at < bytes.length; at += CHUNK) {
    let chunk = bytes.subarray(at, Math.min(at + CHUNK, bytes.length));
    if (encoding === 'utf-16be') {
      chunk = Buffer.from(chunk);
      chunk.swap16();
    }
    yield decode(chunk);
  }
  const rest = text ? text.decode() : (page?.end() ?? '');
  if (rest !== '') yield rest;
}
