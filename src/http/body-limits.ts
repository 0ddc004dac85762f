import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../contract/errors.ts';
import { OPERATIONS } from '../operations/catalog.ts';

/**
 * What any route reads from a caller it does not know yet (docs/decisions.md 410): sign-in and
 * invitation forms declare their own smaller limits, and the routes that take large bodies (the
 * API, MCP, dashboard actions) authenticate in `onRequest`, before Fastify reads a byte of the body.
 */
export const UNAUTHENTICATED_BODY_LIMIT = 16 * 1024;

/**
 * The largest body any operation accepts (statement imports take the base64 of a 20 MiB file):
 * what a route may read at most from an authenticated caller; each operation holds the body to its
 * own, usually smaller, limit while it arrives.
 */
export const GLOBAL_BODY_LIMIT = Math.max(
  16 * 1024 * 1024,
  ...OPERATIONS.map((operation) => operation.maxBodyBytes ?? 0),
);

function inWords(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (Number.isInteger(mib)) return `${mib} MiB`;
  const kib = bytes / 1024;
  return Number.isInteger(kib) ? `${kib} KiB` : `${bytes} bytes`;
}

/** 413 naming the limit (`error.limit_bytes`), so a client knows what would have been accepted. */
export function bodyTooLarge(limit: number, what = 'This request'): AppError {
  return new AppError(
    'payload_too_large',
    `The body is too large: ${what} accepts at most ${limit} bytes (${inWords(limit)}).`,
    { details: { limit_bytes: limit } },
  );
}

/** The declared Content-Length, or undefined when the body is chunked (or absent). */
export function declaredLength(request: FastifyRequest): number | undefined {
  const value = request.headers['content-length'];
  if (value === undefined) return undefined;
  const length = Number(value);
  return Number.isFinite(length) ? length : undefined;
}

/** Throws the 413 when the declared length is already over the limit: nothing is read. */
export function refuseDeclaredOver(request: FastifyRequest, limit: number, what?: string): void {
  const length = declaredLength(request);
  if (length !== undefined && length > limit) throw bodyTooLarge(limit, what);
}

/**
 * The payload seen through a counter that fails with the 413 as soon as more than `limit` bytes
 * have arrived (a chunked body declares no length). Fastify reads the body from the stream a
 * `preParsing` hook returns; on the error it stops reading and answers, and the lingering close
 * (`linger.ts`) discards the rest without keeping it.
 */
export function limitedPayload(
  payload: NodeJS.ReadableStream,
  limit: number,
  tooLarge: () => AppError,
): NodeJS.ReadableStream {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      received += chunk.length;
      // Fastify's own check reads this (the encoded length before any decoding).
      (counter as Transform & { receivedEncodedLength?: number }).receivedEncodedLength = received;
      if (received > limit) {
        callback(tooLarge());
        return;
      }
      callback(null, chunk);
    },
  });
  payload.on('error', (error) => counter.destroy(error));
  payload.pipe(counter);
  return counter;
}
