import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';
import { API_VERSION } from '../contract/version.ts';
import type { JsonSchema } from './schemas.ts';

/** Reusable response headers (`components.headers`). */
export const HEADERS = {
  RequestId: {
    description: 'Unique id of this request; quote it when reporting a problem. Present on every response.',
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
  },
  ApiVersion: {
    description: 'Date of the interface contract this service follows. Present on every response.',
    required: true,
    schema: { type: 'string', const: API_VERSION },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimit: {
    description: 'IETF RateLimit header: requests remaining (`r`) and seconds until the window resets (`t`).',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'IETF RateLimit-Policy header: quota (`q`) per window of `w` seconds, per credential.',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) when this answer is the stored result of an earlier request with the same key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

export const ALWAYS_HEADERS = {
  'X-Request-Id': ref('RequestId'),
  'X-Accounting-API-Version': ref('ApiVersion'),
};

const RATE_HEADERS = { RateLimit: ref('RateLimit'), 'RateLimit-Policy': ref('RateLimitPolicy') };

export function successHeaders(mutation: boolean): Record<string, unknown> {
  return {
    ...ALWAYS_HEADERS,
    ...RATE_HEADERS,
    ...(mutation ? { 'Idempotent-Replayed': ref('IdempotentReplayed') } : {}),
  };
}

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The one error body of every failure (`components.schemas.Error`). */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The body of every failure. Extra snake_case facts may appear beside the listed fields.',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      description:
        'What went wrong: a stable `code`, a message, the request id, and the field or facts (`current_revision`, `state`, ...) the code calls for.',
      required: ['code', 'message', 'request_id'],
      additionalProperties: true,
      properties: {
        code: {
          type: 'string',
          enum: CODES,
          description: 'Stable, machine-readable error code (see docs/errors.md).',
        },
        message: { type: 'string', description: 'Human-readable explanation; never contains secrets.' },
        field: {
          type: 'string',
          description: 'The input field at fault, in the caller’s spelling (dotted for nested fields).',
        },
        request_id: { type: 'string', description: 'Same as the X-Request-Id header.' },
        errors: {
          type: 'array',
          description:
            'On input validation failures (`invalid_input`, `unknown_field`, `unknown_parameter`): every invalid field at once, the first being the one `field` and `message` describe.',
          items: {
            type: 'object',
            required: ['field', 'code', 'message'],
            additionalProperties: false,
            properties: {
              field: {
                type: 'string',
                description: 'The field, dotted for nested ones; empty for the body itself.',
              },
              code: { type: 'string', description: 'invalid_input, unknown_field or unknown_parameter.' },
              message: {
                type: 'string',
                description: 'What is wrong, naming the allowed values or the expected format.',
              },
            },
          },
        },
        current_revision: {
          type: 'integer',
          minimum: 1,
          description: 'On `revision_conflict`: the record’s current revision.',
        },
      },
    },
  },
};

type Status = (typeof ERROR_CODES)[ErrorCode]['status'];

/** Component name and summary of each error status. */
const STATUS_RESPONSES: Record<Exclude<Status, 405>, { name: string; summary: string }> = {
  400: { name: 'BadRequest', summary: 'The request or its input is invalid.' },
  401: { name: 'Unauthorized', summary: 'No valid credential.' },
  403: { name: 'Forbidden', summary: 'The credential may not perform this operation.' },
  404: {
    name: 'NotFound',
    summary: 'The record (or operation) does not exist in the caller’s organization.',
  },
  409: { name: 'Conflict', summary: 'The request conflicts with the current state.' },
  413: { name: 'PayloadTooLarge', summary: 'The body is too large.' },
  415: { name: 'UnsupportedMediaType', summary: 'The body is not JSON.' },
  429: { name: 'TooManyRequests', summary: 'Too many requests; retry after `Retry-After` seconds.' },
  500: { name: 'InternalError', summary: 'An unexpected failure; nothing was changed.' },
  503: { name: 'ServiceUnavailable', summary: 'The service is temporarily unavailable; retry later.' },
};

function codesFor(status: Status): ErrorCode[] {
  return CODES.filter((code) => ERROR_CODES[code].status === status);
}

/** `components.responses`: one shared response per error status, listing its codes. */
export function errorResponseComponents(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [statusText, { name, summary }] of Object.entries(STATUS_RESPONSES)) {
    const status = Number(statusText) as Exclude<Status, 405>;
    const codes = codesFor(status)
      .map((code) => `- \`${code}\`: ${ERROR_CODES[code].description}`)
      .join('\n');
    const retry = status === 429 || status === 503 || status === 409;
    out[name] = {
      description: `${summary}\n\nCodes:\n${codes}`,
      headers: {
        ...ALWAYS_HEADERS,
        ...(retry ? { 'Retry-After': ref('RetryAfter') } : {}),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

/** The error statuses one operation can answer, as `$ref`s to the shared responses. */
export function errorResponses(options: { mutation: boolean; post: boolean }): Record<string, unknown> {
  // 405 (GET on a mutation) is answered for a method the document does not list, so it has no entry.
  const statuses: Exclude<Status, 405>[] = [400, 401, 403, 404];
  if (options.mutation) statuses.push(409);
  if (options.post) statuses.push(413, 415);
  statuses.push(429, 500, 503);
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { $ref: `#/components/responses/${STATUS_RESPONSES[status].name}` },
    ]),
  );
}
