import { createHash, type Hash, randomUUID } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { STREAMED_PLACEHOLDER, type StreamedUpload } from '../operations/uploads.ts';

// A file field (`contentBase64`) decoded while the request body arrives (decision 457), so that a
// 20 MiB upload never exists in the service as a 27 MiB body, a 27 MiB string and the parsed copy
// of it: the field's characters are decoded into the file's bytes as they come, and only the rest
// of the JSON (with the field replaced by STREAMED_PLACEHOLDER) reaches the JSON parser.

const QUOTE = 0x22;
const HEX = '0123456789abcdef';
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const EQUALS = 0x3d;
/** The characters JSON allows after a backslash besides `u` and `/`: `"`, `\`, b, f, n, r, t. */
const JSON_ESCAPES = [QUOTE, BACKSLASH, 0x62, 0x66, 0x6e, 0x72, 0x74];
/** Decoded a group of characters at a time: a multiple of 4, large enough to be cheap per call. */
const GROUP = 256 * 1024;

function isBase64Char(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2b ||
    byte === SLASH
  );
}

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Decodes base64 characters into the file, checking the same rules as `decodeBase64`. */
class Base64Sink {
  private readonly pending = Buffer.allocUnsafe(GROUP);
  private pendingLength = 0;
  /**
   * The decoded file, written in place: sized from the body's declared length when there is one
   * (a file field is at most 3/4 of it), so a 20 MiB upload is never a list of parts and their
   * concatenation at once (two copies); grown by doubling otherwise. Untouched pages of a large
   * allocation cost no memory.
   */
  private out: Buffer;
  private length = 0;
  private readonly hash: Hash = createHash('sha256');
  private characters = 0;
  private padding = 0;
  invalid = false;

  constructor(declaredBodyBytes: number | undefined) {
    this.out = Buffer.allocUnsafe(
      declaredBodyBytes === undefined ? GROUP : Math.ceil((declaredBodyBytes * 3) / 4) + 3,
    );
  }

  push(byte: number): void {
    this.characters += 1;
    if (byte === EQUALS) this.padding += 1;
    else if (this.padding > 0 || !isBase64Char(byte)) this.invalid = true;
    if (this.invalid) return;
    this.pending[this.pendingLength++] = byte;
    if (this.pendingLength === GROUP) this.flush();
  }

  /** A character that makes the text invalid but is still part of what the parser would read. */
  reject(): void {
    this.characters += 1;
    this.invalid = true;
  }

  private flush(): void {
    const group = this.pending.subarray(0, this.pendingLength);
    this.hash.update(group);
    const text = group.toString('latin1');
    const needed = this.length + Math.ceil((text.length * 3) / 4);
    if (needed > this.out.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.out.length * 2));
      this.out.copy(grown, 0, 0, this.length);
      this.out = grown;
    }
    this.length += this.out.write(text, this.length, 'base64');
    this.pendingLength = 0;
  }

  get empty(): boolean {
    return this.characters === 0;
  }

  finish(): StreamedUpload {
    if (this.pendingLength > 0 && !this.invalid) this.flush();
    const wellFormed = !this.invalid && this.characters % 4 === 0 && this.padding <= 2;
    return {
      bytes: wellFormed ? this.out.subarray(0, this.length) : undefined,
      // Text that is not base64 fails the operation (which releases its idempotency key): its
      // digest only has to match no other request's, so it is a fresh one, never the prefix's.
      textSha256: wellFormed ? this.hash.digest('hex') : `invalid:${randomUUID()}`,
    };
  }
}

type Mode = 'value' | 'string' | 'field';

/**
 * Passes a JSON body through, except the text of the top-level string field `field`, which it
 * decodes into a `StreamedUpload` handed to `onUpload` at the end. It tracks only what it must
 * (nesting, strings and their escapes, keys at the top level); the JSON parser still checks the
 * rest. A key written with escapes, a second occurrence of the field or a non-string value is
 * passed through unchanged, so the parser's reading (the last duplicate wins) stays the truth.
 */
export function streamField(
  payload: NodeJS.ReadableStream,
  field: string,
  onUpload: (upload: StreamedUpload) => void,
  /** The body's Content-Length, already checked against its limit, when the client sent one. */
  declaredBodyBytes?: number,
): NodeJS.ReadableStream {
  const target = Buffer.from(field, 'latin1');
  let mode: Mode = 'value';
  let depth = 0;
  let escaped = false;
  let expectKey = false;
  // The top-level key being read (at most the target's length is kept: longer cannot match).
  let inKey = false;
  let keyParts: Buffer[] = [];
  let keyLength = 0;
  let keyStart = 0;
  let closedKeyMatches = false;
  let afterColon = false;
  let valueKeyMatches = false;
  let streamed = false;
  let sink: Base64Sink | undefined;
  // Inside a \uXXXX escape of the field: how many hex digits were read (-1: none pending).
  let unicodeDigits = -1;
  // The field's text is not a JSON string (a raw control character, an unknown escape, a \u
  // without four hex digits): the parser must still refuse the body as invalid JSON.
  let brokenJson = false;
  let unicodeValue = 0;
  let received = 0;

  const keepKeyPart = (part: Buffer) => {
    keyLength += part.length;
    if (keyLength <= target.length) keyParts.push(Buffer.from(part));
  };

  const transform = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      received += chunk.length;
      // Fastify compares this with Content-Length: the bytes that arrived, not the ones passed on.
      (transform as Transform & { receivedEncodedLength?: number }).receivedEncodedLength = received;
      let passFrom = 0;
      keyStart = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i] as number;
        if (mode === 'field') {
          const current = sink as Base64Sink;
          if (unicodeDigits >= 0) {
            // "\u002B" is "+" to a JSON parser: read the four hex digits, then the character.
            const digit = HEX.indexOf(String.fromCharCode(byte).toLowerCase());
            if (digit < 0) {
              current.reject();
              brokenJson = true;
              unicodeDigits = -1;
            } else {
              unicodeValue = unicodeValue * 16 + digit;
              unicodeDigits += 1;
              if (unicodeDigits === 4) {
                if (unicodeValue < 0x80) current.push(unicodeValue);
                else current.reject();
                unicodeDigits = -1;
              }
            }
          } else if (escaped) {
            escaped = false;
            // JSON may escape a slash ("\/") or any character as \uXXXX; other escapes
            // (\n, \", \\...) stand for characters that are not base64.
            if (byte === SLASH) current.push(byte);
            else if (byte === 0x75) {
              unicodeDigits = 0;
              unicodeValue = 0;
            } else {
              current.reject();
              if (!JSON_ESCAPES.includes(byte)) brokenJson = true;
            }
          } else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) {
            if (brokenJson) {
              // A raw control character in the string passed on: the parser answers invalid_json,
              // as it did for the whole text before the field was streamed.
              this.push(Buffer.from('\u0001"', 'latin1'));
              sink = undefined;
              mode = 'value';
              passFrom = i + 1;
              continue;
            }
            this.push(Buffer.from(current.empty ? '"' : `${STREAMED_PLACEHOLDER}"`, 'latin1'));
            // An empty value is no upload: a later occurrence of the field may still stream.
            if (!current.empty) {
              onUpload(current.finish());
              streamed = true;
            }
            sink = undefined;
            mode = 'value';
            passFrom = i + 1;
          } else {
            if (byte < 0x20) brokenJson = true;
            current.push(byte);
          }
          continue;
        }
        if (mode === 'string') {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) {
            mode = 'value';
            if (inKey) {
              keepKeyPart(chunk.subarray(keyStart, i));
              closedKeyMatches = keyLength === target.length && Buffer.concat(keyParts).equals(target);
              inKey = false;
              keyParts = [];
              keyLength = 0;
            }
          }
          continue;
        }
        if (isJsonSpace(byte)) continue;
        if (afterColon) {
          afterColon = false;
          if (valueKeyMatches && !streamed && byte === QUOTE) {
            // The field's opening quote goes on; its text is decoded instead of passed.
            this.push(chunk.subarray(passFrom, i + 1));
            sink = new Base64Sink(declaredBodyBytes);
            mode = 'field';
            continue;
          }
        }
        if (byte === QUOTE) {
          mode = 'string';
          if (depth === 1 && expectKey) {
            inKey = true;
            keyStart = i + 1;
            expectKey = false;
          }
        } else if (byte === 0x7b || byte === 0x5b) {
          depth += 1;
          expectKey = depth === 1 && byte === 0x7b;
        } else if (byte === 0x7d || byte === 0x5d) depth -= 1;
        else if (byte === 0x2c && depth === 1) expectKey = true;
        else if (byte === 0x3a && depth === 1) {
          afterColon = true;
          valueKeyMatches = closedKeyMatches;
        }
        closedKeyMatches = false;
      }
      if (inKey) keepKeyPart(chunk.subarray(keyStart));
      if (mode !== 'field' && passFrom < chunk.length) this.push(chunk.subarray(passFrom));
      callback();
    },
  });
  payload.on('error', (error) => transform.destroy(error));
  payload.pipe(transform);
  return transform;
}
