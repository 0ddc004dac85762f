import { type Static, type TSchema, Type } from 'typebox';
import { AppError } from '../contract/errors.ts';
import { MAX_SAFE } from '../contract/formats.ts';

/**
 * Both list styles of the contract. Records inside are snake_case; the page envelope uses the
 * contract's own spelling (`items`, `nextCursor`), so `nextOffset` follows it.
 */

export const OffsetPage = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      items: Type.Array(item),
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

export const CursorPage = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      items: Type.Array(item),
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

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      if (!Number.isNaN(Date.parse(parsed[0])))
        return { createdAt: new Date(parsed[0]).toISOString(), id: parsed[1] };
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
