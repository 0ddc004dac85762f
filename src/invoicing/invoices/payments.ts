import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { MAX_SAFE } from '../../contract/formats.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { compareDates, daysBetween, type IsoDate, parseIsoDate } from '../calendar.ts';
import { applyPayment, balanceOf } from '../status.ts';
import { updateInvoiceIf } from './drafts.ts';
import { domain } from './errors.ts';
import { type Invoice, type InvoicePayment, invoiceEventData, type PaymentMethod } from './model.ts';
import { loadInvoice, organizationToday } from './queries.ts';

/** How long before the issue date a payment (a deposit) may have arrived: docs/decisions.md. */
export const PREPAYMENT_DAYS = 365;

export interface RecordPaymentInput {
  /** Greater than 0, at most the open balance. */
  amountMinor: bigint;
  /** The day the money arrived; not after the organization's today, nor over PREPAYMENT_DAYS before the issue date. */
  paidOn: IsoDate;
  method: PaymentMethod;
  reference?: string | null | undefined;
  expectedRevision?: number | undefined;
}

export interface RecordPaymentResult {
  invoice: Invoice;
  payment: InvoicePayment;
  /** True when this payment brought the balance to 0 (invoice.paid was emitted). */
  becamePaid: boolean;
}

/**
 * Records a payment on a sent invoice: partial payments lower the balance (invoice.payment_recorded);
 * the one that brings it to exactly 0 moves the invoice to paid and also emits invoice.paid.
 * A payment above the balance is refused (payment_exceeds_balance), never kept as credit.
 */
export async function recordPayment(
  unit: UnitOfWork,
  invoiceId: string,
  input: RecordPaymentInput,
): Promise<RecordPaymentResult> {
  const current = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (!current) throw notFound('Invoice', 'invoiceId');
  if (input.expectedRevision !== undefined && current.revision !== input.expectedRevision) {
    throw revisionConflict(current.revision);
  }
  if (current.status !== 'sent') {
    throw new AppError('payment_not_allowed', `Payments cannot be recorded on a ${current.status} invoice.`, {
      details: { state: current.status },
    });
  }
  if (input.amountMinor <= 0n || input.amountMinor > BigInt(MAX_SAFE)) {
    throw new AppError('invalid_input', `amountMinor must be 1 to ${MAX_SAFE}.`, { field: 'amountMinor' });
  }
  domain(() => parseIsoDate(input.paidOn, 'paidOn'));
  const today = await organizationToday(unit.db, unit.organizationId, unit.clock);
  if (compareDates(input.paidOn, today) > 0) {
    throw new AppError('invalid_input', 'paidOn must not be in the future.', { field: 'paidOn' });
  }
  // A deposit may arrive before the invoice is written, but not years before (a mistyped year).
  if (daysBetween(input.paidOn, current.issueDate) > PREPAYMENT_DAYS) {
    throw new AppError(
      'invalid_input',
      `paidOn must not be more than ${PREPAYMENT_DAYS} days before the issue date ${current.issueDate}.`,
      { field: 'paidOn' },
    );
  }
  const balance = balanceOf(current);
  if (input.amountMinor > balance) {
    throw new AppError('payment_exceeds_balance', `The payment is larger than the balance ${balance}.`, {
      field: 'amountMinor',
      details: { balance_minor: balance.toString() },
    });
  }
  const outcome = domain(() => applyPayment(current, input.amountMinor));
  const now = unit.clock.now().toISOString();
  await updateInvoiceIf(
    unit,
    invoiceId,
    { revision: current.revision, status: 'sent' },
    {
      status: outcome.status,
      amount_paid_minor: outcome.amountPaidMinor.toString(),
      balance_minor: outcome.balanceMinor.toString(),
      paid_at: outcome.becamePaid ? now : null,
      updated_at: now,
    },
  );
  const payment: InvoicePayment = {
    id: newId(),
    amountMinor: input.amountMinor,
    paidOn: input.paidOn,
    method: input.method,
    reference: input.reference ?? null,
    createdAt: now,
  };
  await unit.db
    .insertInto('invoice_payments')
    .values({
      id: payment.id,
      organization_id: unit.organizationId,
      invoice_id: invoiceId,
      amount_minor: payment.amountMinor.toString(),
      paid_on: payment.paidOn,
      method: payment.method,
      reference: payment.reference,
      created_at: now,
    })
    .execute();
  const invoice: Invoice = {
    ...current,
    status: outcome.status,
    amountPaidMinor: outcome.amountPaidMinor,
    balanceMinor: outcome.balanceMinor,
    paidAt: outcome.becamePaid ? now : null,
    revision: current.revision + 1,
    updatedAt: now,
    payments: [...current.payments, payment],
  };
  await unit.audit({
    recordType: 'invoice',
    recordId: invoiceId,
    beforeRevision: current.revision,
    afterRevision: invoice.revision,
  });
  const subject = { type: 'invoice', id: invoiceId };
  await unit.emit({
    type: 'invoice.payment_recorded',
    subject,
    data: {
      ...invoiceEventData(invoice),
      paymentId: payment.id,
      paymentAmountMinor: payment.amountMinor.toString(),
      paidOn: payment.paidOn,
      method: payment.method,
    },
  });
  if (outcome.becamePaid) await unit.emit({ type: 'invoice.paid', subject, data: invoiceEventData(invoice) });
  return { invoice, payment, becamePaid: outcome.becamePaid };
}
