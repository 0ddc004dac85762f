import { compareDates, type IsoDate } from './calendar.ts';
import { InvoicingError } from './errors.ts';
import { assertMinorRange } from './money.ts';

/**
 * Stored invoice states. "Overdue" is not one of them: it is derived (see isOverdue), because a
 * stored flag would need a worker to flip it at midnight in every organization's time zone and
 * would be wrong whenever that worker lags; the derivation is always right and is a plain
 * `due_date < today` filter in SQL.
 */
export type InvoiceStatus = 'draft' | 'sent' | 'paid' | 'void';

/** The status graph; `paid` and `void` are final. Payments move sent -> paid (applyPayment). */
export function canTransition(from: InvoiceStatus, to: InvoiceStatus): boolean {
  switch (from) {
    case 'draft':
      return to === 'sent' || to === 'void';
    case 'sent':
      return to === 'paid' || to === 'void';
    case 'paid':
    case 'void':
      return false;
  }
}

export interface InvoiceMoneyState {
  readonly status: InvoiceStatus;
  readonly totalMinor: bigint;
  readonly amountPaidMinor: bigint;
}

export function balanceOf(invoice: InvoiceMoneyState): bigint {
  return assertMinorRange(invoice.totalMinor - invoice.amountPaidMinor);
}

function refuse(from: InvoiceStatus, to: InvoiceStatus): InvoicingError {
  return new InvoicingError('invalid_transition', `${from} -> ${to}`, 'status');
}

/**
 * Sending a draft. A zero-total invoice has nothing to collect, so it is paid on sending
 * rather than left open forever.
 */
export function statusAfterSend(invoice: InvoiceMoneyState): InvoiceStatus {
  if (!canTransition(invoice.status, 'sent')) throw refuse(invoice.status, 'sent');
  return invoice.totalMinor === 0n ? 'paid' : 'sent';
}

/** Voiding is refused once money was received: that needs a refund or credit note, not a void. */
export function statusAfterVoid(invoice: InvoiceMoneyState): InvoiceStatus {
  if (!canTransition(invoice.status, 'void')) throw refuse(invoice.status, 'void');
  if (invoice.amountPaidMinor > 0n) {
    throw new InvoicingError('invalid_transition', 'invoice has payments', 'status');
  }
  return 'void';
}

export interface PaymentOutcome {
  readonly status: InvoiceStatus;
  readonly amountPaidMinor: bigint;
  readonly balanceMinor: bigint;
  /** True exactly when this payment moved the invoice to paid (emit invoice.paid once). */
  readonly becamePaid: boolean;
}

/**
 * Records a payment on a sent invoice. A payment above the balance is refused (no silent
 * credit balance); paying the exact balance moves the invoice to paid.
 */
export function applyPayment(invoice: InvoiceMoneyState, paymentMinor: bigint): PaymentOutcome {
  if (invoice.status !== 'sent') throw refuse(invoice.status, 'paid');
  if (paymentMinor <= 0n) throw new InvoicingError('invalid_payment', undefined, 'amountMinor');
  const balance = balanceOf(invoice);
  if (paymentMinor > balance) {
    throw new InvoicingError('payment_exceeds_balance', `balance is ${balance}`, 'amountMinor');
  }
  const balanceMinor = balance - paymentMinor;
  const becamePaid = balanceMinor === 0n;
  return {
    status: becamePaid ? 'paid' : 'sent',
    amountPaidMinor: invoice.amountPaidMinor + paymentMinor,
    balanceMinor,
    becamePaid,
  };
}

/** Overdue: sent, something left to pay, and the due date is before today (organization's zone). */
export function isOverdue(
  invoice: { readonly status: InvoiceStatus; readonly dueDate: IsoDate; readonly balanceMinor: bigint },
  today: IsoDate,
): boolean {
  return invoice.status === 'sent' && invoice.balanceMinor > 0n && compareDates(invoice.dueDate, today) < 0;
}
