import { postInvoiceVoidEntry } from '../../books/invoice-posting.ts';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { statusAfterVoid } from '../status.ts';
import { updateInvoiceIf } from './drafts.ts';
import { invalidState } from './errors.ts';
import { type Invoice, invoiceEventData } from './model.ts';
import { loadInvoice, organizationToday } from './queries.ts';

export interface VoidOptions {
  expectedRevision?: number | undefined;
  reason?: string | null | undefined;
}

/**
 * draft or sent (without payments) -> void, final. A sent invoice keeps its number, so the
 * sequence stays gapless; once money was received a refund or credit note is needed instead.
 */
export async function voidInvoice(
  unit: UnitOfWork,
  invoiceId: string,
  options: VoidOptions = {},
): Promise<Invoice> {
  const current = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (!current) throw notFound('Invoice', 'id');
  if (options.expectedRevision !== undefined && current.revision !== options.expectedRevision) {
    throw revisionConflict(current.revision);
  }
  if (current.status === 'paid' || current.status === 'void') {
    throw invalidState(current.status, `A ${current.status} invoice cannot be voided.`);
  }
  if (current.amountPaidMinor > 0n) {
    throw invalidState(current.status, 'An invoice with recorded payments cannot be voided.');
  }
  const status = statusAfterVoid(current);
  const now = unit.clock.now().toISOString();
  await updateInvoiceIf(
    unit,
    invoiceId,
    { revision: current.revision, status: current.status },
    {
      status,
      voided_at: now,
      void_reason: options.reason ?? null,
      updated_at: now,
    },
  );
  const invoice: Invoice = {
    ...current,
    status,
    voidedAt: now,
    voidReason: options.reason ?? null,
    revision: current.revision + 1,
    updatedAt: now,
  };
  await unit.audit({
    recordType: 'invoice',
    recordId: invoiceId,
    beforeRevision: current.revision,
    afterRevision: invoice.revision,
  });
  await postInvoiceVoidEntry(
    unit.db,
    unit.organizationId,
    {
      id: invoiceId,
      number: current.number,
      voidDate: await organizationToday(unit.db, unit.organizationId, unit.clock),
    },
    now,
  );
  await unit.emit({
    type: 'invoice.voided',
    subject: { type: 'invoice', id: invoiceId },
    data: invoiceEventData(invoice),
  });
  return invoice;
}
