import { type TLiteral, type TUnion, Type } from 'typebox';

/**
 * Formats fixed by the contract's "Identifier and number formats" table.
 * Every schema here is plain JSON Schema so the same object feeds Ajv, OpenAPI and MCP.
 */

/** UUID versions 1-8 with variant 8/9/a/b, plus the all-zero (nil) and all-f (max) UUIDs. */
export const UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';
const uuidRegex = new RegExp(UUID_PATTERN);

export function isId(value: unknown): value is string {
  return typeof value === 'string' && uuidRegex.test(value);
}

export const MAX_SAFE = 9007199254740991;

export const Id = (description = 'Identifier (UUID).') => Type.String({ pattern: UUID_PATTERN, description });

export const Revision = (description = 'The revision of the record the caller last read.') =>
  Type.Integer({ minimum: 1, maximum: MAX_SAFE, description });

export const Limit = Type.Integer({
  minimum: 1,
  maximum: 100,
  default: 30,
  description: 'Page size, 1 to 100 (default 30).',
});

export const Offset = Type.Integer({
  minimum: 0,
  maximum: MAX_SAFE,
  default: 0,
  description: 'Number of records to skip (default 0).',
});

export const Country = Type.String({
  pattern: '^[A-Z]{2}$',
  description: 'Country, two uppercase letters (ISO 3166-1 alpha-2).',
});

export const Email = (description = 'Email address.') =>
  Type.String({ format: 'email', minLength: 3, maxLength: 320, description });

/** Body `idempotencyKey`: 8-150 on contractor operations, 8-200 elsewhere (contract, Limits). */
export const IdempotencyKey = (max: 150 | 200) =>
  Type.String({
    minLength: 8,
    maxLength: max,
    description: `Idempotency key, 8-${max} characters; required unless the Idempotency-Key header is sent.`,
  });

export const IDEMPOTENCY_HEADER_MIN = 8;
export const IDEMPOTENCY_HEADER_MAX = 200;

/** A calendar date within the service's date range (DATE_MIN..DATE_MAX; the `date` format checks it). */
export const DateString = (description: string) => Type.String({ format: 'date', description });

/** An RFC 3339 timestamp whose date lies within the service's date range (the `date-time` format). */
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** An ISO 4217 currency code on the wire (which codes are supported is each area's rule). */
export const CurrencyCode = (description: string) =>
  Type.String({ pattern: '^[A-Z]{3}$', description: `${description} Uppercase ISO 4217 code.` });

/** A signed amount on the wire: a decimal string of minor units, negative = money out. */
export const SignedMinor = (description: string) =>
  Type.String({
    pattern: SIGNED_MINOR_PATTERN,
    description: `${description} Signed decimal string of minor units, at most 9007199254740991 either way.`,
  });

/**
 * The one date range of the service (docs/decisions.md 321): every date and timestamp it accepts
 * (schemas, query parameters, cursors, statement lines, extracted receipt dates) lies within it.
 * Wide enough for any real booking, narrow enough that both databases and every date computation
 * (year 0000 does not exist in PostgreSQL; 9999-12-31 plus a day overflows) handle it.
 */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2999-12-31';
export const DATE_RANGE_TEXT = `between ${DATE_MIN} and ${DATE_MAX}`;

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` within DATE_MIN..DATE_MAX. */
export function isDateInRange(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_SHAPE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return day <= days && value >= DATE_MIN && value <= DATE_MAX;
}

const TIMESTAMP_SHAPE = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2}|60)(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp whose date lies within DATE_MIN..DATE_MAX. */
export function isTimestampInRange(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = TIMESTAMP_SHAPE.exec(value);
  if (!m || !isDateInRange(m[1])) return false;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const zone = m[6] as string;
  const zoneOk = /^[Zz]$/.test(zone) || (Number(zone.slice(1, 3)) <= 23 && Number(zone.slice(4, 6)) <= 59);
  return hour <= 23 && minute <= 59 && second <= 60 && zoneOk;
}

export const DATE_MESSAGE = `a date as YYYY-MM-DD ${DATE_RANGE_TEXT}`;
export const TIMESTAMP_MESSAGE = `a timestamp as YYYY-MM-DDTHH:MM:SSZ (RFC 3339, with Z or an offset) ${DATE_RANGE_TEXT}`;

/**
 * The money range (docs/decisions.md 320): every amount the service accepts or stores is at most
 * 9007199254740991 minor units either way, the integers both drivers (better-sqlite3 reads them as
 * JS numbers) and every sum of up to a thousand of them (int64) keep exact.
 */
export const MAX_MINOR = 9007199254740991n;

export function isMinorInRange(value: bigint): boolean {
  return value <= MAX_MINOR && value >= -MAX_MINOR;
}

/** Decimal strings 1..`max` as a regular expression body (no anchors, no sign). */
function upTo(max: string): string {
  const options: string[] = [];
  // Fewer digits than max: any.
  if (max.length > 1) options.push(`[1-9][0-9]{0,${max.length - 2}}`);
  // As many digits: digit by digit, lower at position i, equal before it.
  for (let i = 0; i < max.length; i += 1) {
    const digit = Number(max[i]);
    const low = i === 0 ? 1 : 0;
    const rest = max.length - i - 1;
    if (i === max.length - 1) {
      options.push(`${max.slice(0, i)}[${low}-${digit}]`);
    } else if (digit > low) {
      options.push(`${max.slice(0, i)}[${low}-${digit - 1}][0-9]{${rest}}`);
    }
  }
  return options.join('|');
}

/** Signed minor units within the money range, `0`, `-1`, `9007199254740991`. */
export const SIGNED_MINOR_PATTERN = `^(0|-?(?:${upTo(MAX_MINOR.toString())}))$`;
/** Non-negative minor units within the money range. */
export const MINOR_PATTERN = `^(0|(?:${upTo(MAX_MINOR.toString())}))$`;
/** Minor units greater than 0 within the money range (a payment, a rate). */
export const POSITIVE_MINOR_PATTERN = `^(?:${upTo(MAX_MINOR.toString())})$`;

/** At least one character that is not white space: a value that is required cannot be blank. */
export const NOT_BLANK_PATTERN = '\\S';

/**
 * Text a field requires: `min`-`max` characters (Ajv counts code points, so an emoji is one) with
 * at least one that is not white space (issue 27: a blank description was stored as "").
 */
export const RequiredText = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: NOT_BLANK_PATTERN, description });

/**
 * One line of text shown to people (a name, a label): not blank, and no control characters (C0,
 * DEL, C1), line or paragraph separators, or bidirectional overrides and isolates. Such a
 * character in a name breaks a mail header or a terminal line, or disguises a file name
 * (issue 31 part 7; docs/decisions.md 389).
 */
export const SINGLE_LINE_PATTERN =
  '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]*$';

export const SingleLineText = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: SINGLE_LINE_PATTERN, description });

/**
 * One of `values`, as an anyOf of string constants (the refusal names them, see
 * operations/validation-report.ts) typed as their union: TypeBox types a union built from a mapped
 * array as `never`, so inputs read through it were typed `undefined`.
 */
export function literalUnion<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
}
