import { Type } from 'typebox';

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

export const DateString = (description: string) => Type.String({ format: 'date', description });

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** An ISO 4217 currency code on the wire (which codes are supported is each area's rule). */
export const CurrencyCode = (description: string) =>
  Type.String({ pattern: '^[A-Z]{3}$', description: `${description} Uppercase ISO 4217 code.` });

/** A signed amount on the wire: a decimal string of minor units, negative = money out. */
export const SignedMinor = (description: string) =>
  Type.String({
    pattern: '^(0|-?[1-9][0-9]{0,17})$',
    description: `${description} Signed decimal string of minor units.`,
  });
