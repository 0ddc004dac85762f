/**
 * Invoicing service: the domain API shared by the invoice operations (src/operations/invoices)
 * and background jobs (recurring schedules, payment plans, deadlines). Every function takes a
 * `UnitOfWork` (src/jobs/system-context.ts; an OperationContext is one, and `withSystemUnit`
 * makes one for jobs) and does all its writes - rows, audit, events, outbox mail - in that
 * unit's transaction. Failures are `AppError`s with the contract's codes (a thrown error rolls
 * the whole unit back, including an allocated invoice number).
 *
 * API (money is bigint minor units in code; dates are `YYYY-MM-DD` strings):
 *
 *   createDraftInvoice(unit, {
 *     partyId, currency, lines: [{ description, quantity: '1.5', unitAmountMinor: '12345' | 12345n,
 *     taxRate?: '13' }], issueDate? (default: organization's today), dueDate? | paymentTermsDays?
 *     (exactly one), scheduledSendDate?, notes?, scheduleId?, scheduleOccurrence? })  -> Invoice
 *       Draft, no number; totals computed here (per line, half-even). Emits invoice.created.
 *       (schedule_id, schedule_occurrence) is UNIQUE in the table: a second insert for the same
 *       occurrence fails with a unique violation (isUniqueViolation from src/db/errors.ts).
 *   updateDraftInvoice(unit, invoiceId, expectedRevision, patch)                   -> Invoice
 *   sendInvoice(unit, invoiceId, { expectedRevision? })                            -> Invoice
 *       draft -> sent (zero total: paid). Takes the next gapless number (INV-000001...), freezes
 *       party/organization details, emails the party the PDF (unit.sendMail), emits invoice.sent
 *       (and invoice.paid for a zero total). Refuses with party_email_missing (409) when the
 *       party has no email, invalid_state (409) unless draft.
 *   recordPayment(unit, invoiceId, { amountMinor: bigint, paidOn, method, reference?,
 *     expectedRevision? })                              -> { invoice, payment, becamePaid }
 *       sent only; refuses above the balance (payment_exceeds_balance) and a paidOn after today
 *       or more than PREPAYMENT_DAYS (365) before the issue date. Emits
 *       invoice.payment_recorded, plus invoice.paid when the balance reaches 0.
 *   voidInvoice(unit, invoiceId, { expectedRevision?, reason? })                   -> Invoice
 *   loadInvoice(db, organizationId, invoiceId)      -> Invoice (with lines, payments) | undefined
 *   loadParty(db, organizationId, partyId)          -> Party | undefined
 *   organizationToday(db, organizationId, clock)    -> 'YYYY-MM-DD' in the organization's zone
 *   invoiceEventData(invoice)                       -> data of invoice.* events (contract shape)
 *   renderInvoiceDocument(invoice, snapshot)        -> { filename, pdf }
 *   sendScheduledDrafts(services, { limit? })       -> count; sends drafts whose
 *       scheduledSendDate is on or before the organization's today (one transaction each). A
 *       refusal is recorded once (invoicing_notices, invoice.scheduled_send_failed, staff email)
 *       and retried only after the draft or its party changes.
 *
 * Columns reserved for the deadline worker (invoices table): due_soon_notified_at, overdue_at
 * (set once when the notice/event went out). Overdue itself is derived: status 'sent', balance
 * > 0, due_date < organization's today (docs/invoicing.md).
 */
export { currentBillingSnapshot, renderInvoiceDocument } from './document.ts';
export {
  computeDraftLines,
  createDraftInvoice,
  type DraftInvoiceInput,
  type DraftInvoicePatch,
  type DraftLineInput,
  MAX_LINES,
  updateDraftInvoice,
} from './drafts.ts';
export { toAppError } from './errors.ts';
export {
  type BillingSnapshot,
  type Invoice,
  type InvoiceLine,
  type InvoicePayment,
  invoiceEventData,
  PAYMENT_METHODS,
  type Party,
  type PaymentMethod,
} from './model.ts';
export { formatInvoiceNumber } from './numbering.ts';
export { type RecordPaymentInput, type RecordPaymentResult, recordPayment } from './payments.ts';
export {
  loadInvoice,
  loadOrganization,
  loadParty,
  organizationToday,
  selectInvoices,
  toInvoice,
  toParty,
} from './queries.ts';
export { sendScheduledDrafts } from './scheduled.ts';
export { type SendOptions, sendInvoice } from './send.ts';
export { type VoidOptions, voidInvoice } from './void.ts';
