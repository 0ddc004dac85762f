import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { dbJson } from '../../db/values.ts';
import { invoiceSent } from '../../mail/templates/index.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { formatMoneyForDisplay, parseCurrency } from '../money.ts';
import { statusAfterSend } from '../status.ts';
import { currentBillingSnapshot, renderInvoiceDocument } from './document.ts';
import { updateInvoiceIf } from './drafts.ts';
import { domain, invalidState } from './errors.ts';
import { type Invoice, invoiceEventData } from './model.ts';
import { nextInvoiceNumber } from './numbering.ts';
import { loadInvoice } from './queries.ts';

export interface SendOptions {
  /** Checked when given (the API always gives it); jobs may omit it and rely on the internal check. */
  expectedRevision?: number | undefined;
}

/**
 * draft -> sent (or paid at once for a zero total): takes the next number, freezes the billing
 * details, emails the party with the PDF attached (transactional outbox), audits, and emits
 * invoice.sent (and invoice.paid for a zero total). Everything joins the caller's transaction.
 */
export async function sendInvoice(
  unit: UnitOfWork,
  invoiceId: string,
  options: SendOptions = {},
): Promise<Invoice> {
  const current = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (!current) throw notFound('Invoice', 'id');
  if (options.expectedRevision !== undefined && current.revision !== options.expectedRevision) {
    throw revisionConflict(current.revision);
  }
  if (current.status !== 'draft') throw invalidState(current.status, 'Only draft invoices can be sent.');
  const status = domain(() => statusAfterSend(current));
  const snapshot = await currentBillingSnapshot(unit.db, unit.organizationId, current.partyId);
  const email = snapshot.party.email;
  if (email === null) {
    throw new AppError('party_email_missing', 'The party has no email address to send the invoice to.', {
      field: 'id',
    });
  }
  const number = await nextInvoiceNumber(unit);
  const now = unit.clock.now().toISOString();
  // Lost a race with another change: the thrown error rolls the number back as well.
  await updateInvoiceIf(
    unit,
    invoiceId,
    { revision: current.revision, status: 'draft' },
    {
      number,
      status,
      billing_snapshot: dbJson(snapshot),
      sent_at: now,
      paid_at: status === 'paid' ? now : null,
      updated_at: now,
    },
  );
  const invoice: Invoice = {
    ...current,
    number,
    status,
    billingSnapshot: snapshot,
    sentAt: now,
    paidAt: status === 'paid' ? now : null,
    revision: current.revision + 1,
    updatedAt: now,
  };
  const { pdf } = await renderInvoiceDocument(invoice, snapshot);
  const mail = invoiceSent({
    organizationName: snapshot.organizationName,
    partyName: snapshot.party.name,
    number,
    totalFormatted: formatMoneyForDisplay(parseCurrency(invoice.currency), invoice.totalMinor),
    dueDate: invoice.dueDate,
    pdf,
  });
  await unit.sendMail({ to: [email], ...mail });
  await unit.audit({
    recordType: 'invoice',
    recordId: invoiceId,
    beforeRevision: current.revision,
    afterRevision: invoice.revision,
  });
  const subject = { type: 'invoice', id: invoiceId };
  await unit.emit({ type: 'invoice.sent', subject, data: invoiceEventData(invoice) });
  if (status === 'paid') await unit.emit({ type: 'invoice.paid', subject, data: invoiceEventData(invoice) });
  return invoice;
}
