/**
 * Errors raised by the pure invoicing domain layer. The operation layer maps every code to the
 * contract's validation/conflict errors; keeping the union closed lets that mapping be an
 * exhaustive switch.
 */
export const INVOICING_ERROR_CODES = {
  /** A money value is not a minor-unit decimal string, or is negative where it must not be. */
  invalid_amount: 'Amount must be a decimal string of minor units',
  /** A computed amount (a line or an invoice total) would exceed 18 digits of minor units. */
  amount_overflow: 'Amount exceeds the largest supported value',
  /** The currency code is not in the supported table. */
  unsupported_currency: 'Currency is not supported',
  /** Quantity is not a positive decimal with at most 4 fraction digits, or is too large. */
  invalid_quantity: 'Quantity must be a positive decimal with at most 4 fraction digits',
  /** Tax rate is not a percentage from 0 to 100 with at most 4 fraction digits. */
  invalid_tax_rate: 'Tax rate must be a percentage from 0 to 100 with at most 4 fraction digits',
  /** A date is not a real calendar date in YYYY-MM-DD form (years 0001-9999). */
  invalid_date: 'Date must be a calendar date in YYYY-MM-DD form',
  /** The time zone is not an IANA name known to the runtime. */
  invalid_time_zone: 'Time zone is not a known IANA time zone',
  /** A cadence field is out of range (interval, day of month). */
  invalid_cadence: 'Cadence is invalid',
  /** A schedule end condition is out of range (end date before start, count out of range). */
  invalid_schedule_end: 'Schedule end condition is invalid',
  /** An installment plan breaks a rule: count, positive amounts, increasing dates, exact sum. */
  invalid_installments: 'Installments are invalid',
  /** The requested invoice status change is not allowed from the current status. */
  invalid_transition: 'Invoice status change is not allowed',
  /** A payment is not positive. */
  invalid_payment: 'Payment amount must be greater than zero',
  /** A payment is larger than the open balance; overpayments are refused, never stored as credit. */
  payment_exceeds_balance: 'Payment exceeds the invoice balance',
} as const satisfies Record<string, string>;

export type InvoicingErrorCode = keyof typeof INVOICING_ERROR_CODES;

export class InvoicingError extends Error {
  override readonly name = 'InvoicingError';
  readonly code: InvoicingErrorCode;
  /** Input path the error is about (e.g. `lines[2].quantity`), so a 400 can name the field. */
  readonly field: string | undefined;

  constructor(code: InvoicingErrorCode, detail?: string, field?: string) {
    super(detail === undefined ? INVOICING_ERROR_CODES[code] : `${INVOICING_ERROR_CODES[code]}: ${detail}`);
    this.code = code;
    this.field = field;
  }
}
