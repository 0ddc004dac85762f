import { AppError } from '../contract/errors.ts';
import { isDateInRange, isId } from '../contract/formats.ts';

/** Keyset position in attention.mine: (booked date, id) of the last item returned. */
export interface AttentionPosition {
  date: string;
  id: string;
}

export function encodeAttentionCursor(position: AttentionPosition): string {
  return Buffer.from(JSON.stringify(['a', position.date, position.id])).toString('base64url');
}

/** Only cursors this service issued pass (a forged one never reaches a date or uuid cast). */
export function decodeAttentionCursor(cursor: string): AttentionPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed[0] === 'a' &&
      typeof parsed[1] === 'string' &&
      // Within the service's date range: a date PostgreSQL cannot cast (year 0000) must not reach it.
      isDateInRange(parsed[1]) &&
      isId(parsed[2]) &&
      parsed[2] === parsed[2].toLowerCase()
    ) {
      return { date: parsed[1], id: parsed[2] };
    }
  } catch {
    // falls through
  }
  throw new AppError('invalid_input', 'cursor is not a cursor this service issued.', { field: 'cursor' });
}
