import { AppError } from '../contract/errors.ts';

/**
 * Inclusive date ranges (`from`..`to`, both YYYY-MM-DD) are refused the same way by every
 * operation that takes one: `to` before `from` is a 400 naming `to`, never an empty answer here
 * and a refusal there (issue 27).
 */
export function refuseReversedDates(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && to < from) {
    throw new AppError('invalid_input', `to (${to}) is before from (${from}); give to on or after from.`, {
      field: 'to',
    });
  }
}

/**
 * Instant ranges (`from` inclusive, `to` exclusive, RFC 3339) the same way: `to` not after `from`
 * is a 400 naming `to` (admin.auditLog.list; an equal pair would be an empty range).
 */
export function refuseReversedInstants(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && to <= from) {
    throw new AppError('invalid_input', `to (${to}) is not after from (${from}); give to after from.`, {
      field: 'to',
    });
  }
}
