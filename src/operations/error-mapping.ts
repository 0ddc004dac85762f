import { AppError } from '../contract/errors.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';

/** Fastify's own failures (before our handler runs) mapped to the contract's codes. */
const FASTIFY_CODES: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('payload_too_large', 'The body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('unsupported_media_type', 'The body must be application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('invalid_json', 'Content-Length does not match the body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError('invalid_json', 'The body is empty.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_json', 'The body is not valid JSON.'),
};

/**
 * Every thrown value becomes an AppError: ours pass through, transport and database failures get
 * their codes, and anything else is an internal error (its details stay in the log).
 */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  const code = (error as { code?: unknown } | null)?.code;
  const fastify = typeof code === 'string' ? FASTIFY_CODES[code] : undefined;
  if (fastify) return { appError: fastify(), unexpected: false };
  if (isDatabaseUnavailable(error)) {
    return {
      appError: new AppError('service_unavailable', 'The database is unavailable; retry later.', {
        retryAfterSeconds: 1,
      }),
      unexpected: true,
    };
  }
  return { appError: new AppError('internal_error', 'An internal error occurred.'), unexpected: true };
}
