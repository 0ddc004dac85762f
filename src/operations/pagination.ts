import { type Static, type TSchema, Type } from 'typebox';
import { AppError } from '../contract/errors.ts';
import { isId, isTimestampInRange, MAX_SAFE } from '../contract/formats.ts';

/**
 * Both list styles of the contract. Records inside are snake_case; the page envelope uses the
 * contract's own spelling (`items`, `nextCursor`), so `nextOffset` follows it.
 */

/** `items` describes the page's records and their order, e.g. 'The page of parties, newest first.' */
export const OffsetPage = <T extends TSchema>(item: T, items: string) =>
  Type.Object(
    {
      items: Type.Array(item, { description: items }),
      limit: Type.Integer({ description: 'The page size used.' }),
      offset: Type.Integer({ description: 'The offset used.' }),
      nextOffset: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Offset of the next page, or null when this page is the last.',
      }),
    },
    { additionalProperties: false },
  );

/** Fetch `limit + 1` rows; the extra row only tells whether another page exists. */
export function offsetPage<T>(rows: T[], limit: number, offset: number) {
  const items = rows.slice(0, limit);
  return { items, limit, offset, nextOffset: rows.length > limit ? offset + limit : null };
}

/** `items` describes the page's records and their order, as for `OffsetPage`. */
export const CursorPage = <T extends TSchema>(item: T, items: string) =>
  Type.Object(
    {
      items: Type.Array(item, { description: items }),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Opaque cursor of the next page, or null when no more records remain.',
      }),
    },
    { additionalProperties: false },
  );

export const Cursor = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "Opaque cursor from a previous page's nextCursor.",
});

/** Keyset position: the (created_at, id) of the last item returned, newest first. */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** How timestamps are stored and issued: `Date#toISOString`, from 1970 to the service's last date. */
const ISSUED_TIMESTAMP = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isIssuedTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const year = ISSUED_TIMESTAMP.exec(value)?.[1];
  if (year === undefined || Number(year) < 1970 || !isTimestampInRange(value)) return false;
  const time = Date.parse(value);
  // The round trip refuses dates that do not exist (2026-02-30) and anything not in canonical form.
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/**
 * Cursors are opaque but travel through the caller's hands, so a decoded one is checked as
 * strictly as any input: a forged id or timestamp would otherwise reach PostgreSQL's uuid and
 * timestamptz casts (a 500) or compare as text on SQLite. Only what `encodeCursor` issues passes.
 */
export function decodeCursor(cursor: string): CursorPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      isIssuedTimestamp(parsed[0]) &&
      isId(parsed[1]) &&
      parsed[1] === parsed[1].toLowerCase()
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw new AppError('invalid_input', 'cursor is not a cursor this service issued.', { field: 'cursor' });
}

/**
 * Keyset pages never skip or repeat when records arrive between pages: new records sort before
 * the cursor (newest first) and the (created_at, id) pair is unique.
 */
export function cursorPage<T extends { created_at: string; id: string }, R>(
  rows: T[],
  limit: number,
  map: (row: T) => R,
) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(map),
    nextCursor:
      rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

export type OffsetPageOf<T extends TSchema> = Static<ReturnType<typeof OffsetPage<T>>>;
export { MAX_SAFE };
