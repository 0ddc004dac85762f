import { AppError, type ErrorCode } from '../../contract/errors.ts';
import { InvoicingError, type InvoicingErrorCode } from '../errors.ts';
import type { InvoiceStatus } from '../status.ts';

/** How each domain code reaches the caller; exhaustive, so a new domain code needs a decision here. */
const CODE_MAP = {
  invalid_amount: 'invalid_input',
  amount_overflow: 'amount_overflow',
  unsupported_currency: 'unsupported_currency',
  invalid_quantity: 'invalid_quantity',
  invalid_tax_rate: 'invalid_tax_rate',
  invalid_date: 'invalid_input',
  invalid_time_zone: 'invalid_input',
  invalid_cadence: 'invalid_input',
  invalid_schedule_end: 'invalid_input',
  invalid_installments: 'invalid_input',
  invalid_transition: 'invalid_state',
  invalid_payment: 'invalid_input',
  payment_exceeds_balance: 'payment_exceeds_balance',
} as const satisfies Record<InvoicingErrorCode, ErrorCode>;

/** Domain paths (`lines[2].quantity`) in the caller's dotted spelling (`lines.2.quantity`). */
export function wireField(field: string | undefined, prefix?: string): string | undefined {
  if (field === undefined) return prefix;
  const dotted = field.replace(/\[(\d+)\]/g, '.$1');
  return prefix === undefined ? dotted : `${prefix}.${dotted}`;
}

/** Turns a domain error into the contract's error; anything else is rethrown unchanged. */
export function toAppError(error: unknown, prefix?: string): unknown {
  if (!(error instanceof InvoicingError)) return error;
  const field = wireField(error.field, prefix);
  return new AppError(CODE_MAP[error.code], error.message, field === undefined ? {} : { field });
}

/** Runs pure domain code, converting its errors. */
export function domain<T>(work: () => T, prefix?: string): T {
  try {
    return work();
  } catch (error) {
    throw toAppError(error, prefix);
  }
}

export function invalidState(state: InvoiceStatus, message: string): AppError {
  return new AppError('invalid_state', message, { details: { state } });
}
