// Errors of the typed client: what the service answered, or that it could not be reached.
import type { components } from './schema.d.ts';

export type ErrorCode = components['schemas']['Error']['error']['code'];

/** A failure answered by the service: the stable `code` of its error body, and the request id. */
export class AccountingError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly field: string | undefined;
  /** Every fact of the error body (for example `current_revision` on `revision_conflict`). */
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: Record<string, unknown>, headers: Headers) {
    const error = (body.error ?? {}) as Record<string, unknown>;
    super(typeof error.message === 'string' ? error.message : `HTTP ${status}`);
    this.name = 'AccountingError';
    this.status = status;
    this.code = (typeof error.code === 'string' ? error.code : 'internal_error') as ErrorCode;
    this.requestId =
      typeof error.request_id === 'string' ? error.request_id : (headers.get('x-request-id') ?? undefined);
    this.field = typeof error.field === 'string' ? error.field : undefined;
    this.details = error;
    const retryAfter = Number(headers.get('retry-after'));
    this.retryAfterSeconds =
      headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : undefined;
  }
}

/** The service could not be reached (after the retries that were safe to make). */
export class AccountingConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'AccountingConnectionError';
  }
}
