import { decodeBase64, invalidBase64 } from '../contractors/template-file.ts';
import { sha256Hex } from '../lib/canonical-json.ts';

/**
 * A file field an HTTP body streamed (decision 457): the transport decoded its base64 text while
 * the body arrived (`src/http/streamed-upload.ts`) and the parsed input holds
 * `STREAMED_PLACEHOLDER` in its place.
 */
export interface StreamedUpload {
  /** The decoded file, or undefined when the text was not valid base64 (padded, no line breaks). */
  bytes: Buffer | undefined;
  /** SHA-256 (hex) of the field's text as a JSON parser would have read it. */
  textSha256: string;
}

/**
 * Stands in the parsed body for a streamed field. It is not base64 (the parentheses and space), so
 * a body that sends it literally, unstreamed, is refused as invalid base64 like any other text.
 */
export const STREAMED_PLACEHOLDER = '(streamed upload)';

/** The operation's file: the streamed bytes when the field was streamed, else its text decoded. */
export function uploadedFile(upload: StreamedUpload | undefined, text: string): Buffer {
  if (upload === undefined || text !== STREAMED_PLACEHOLDER) return decodeBase64(text);
  if (upload.bytes === undefined) throw invalidBase64();
  return upload.bytes;
}

/**
 * What the idempotency hash reads for a file field: the SHA-256 of its text, the same whether the
 * field was streamed or arrived in the parsed input (MCP, the dashboard), and never a second copy
 * of a 27 MiB string.
 */
export function fileFieldDigest(upload: StreamedUpload | undefined, text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const sha = upload !== undefined && text === STREAMED_PLACEHOLDER ? upload.textSha256 : sha256Hex(text);
  return `sha256:${sha}`;
}
