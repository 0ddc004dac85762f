import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invoiceFilename } from '../../mail/templates/index.ts';
import { renderInvoicePdf } from '../pdf.ts';
import type { BillingSnapshot, Invoice } from './model.ts';
import { loadOrganization, loadParty } from './queries.ts';

/** Organization and party details as they stand now (what a send will freeze). */
export async function currentBillingSnapshot(
  db: Kysely<Database>,
  organizationId: string,
  partyId: string,
): Promise<BillingSnapshot> {
  const [organization, party] = await Promise.all([
    loadOrganization(db, organizationId),
    loadParty(db, organizationId, partyId),
  ]);
  if (!party) throw new Error(`party ${partyId} of an invoice is missing`);
  return {
    organizationName: organization.name,
    party: {
      name: party.name,
      email: party.email,
      addressLines: party.addressLines,
      country: party.country,
      taxId: party.taxId,
    },
  };
}

/**
 * The invoice PDF. Sent invoices print their frozen billing snapshot, so a later change to the
 * party does not rewrite a document the customer already has; the creation date is the send
 * time, so the bytes depend only on the invoice.
 */
export async function renderInvoiceDocument(
  invoice: Invoice,
  snapshot: BillingSnapshot,
): Promise<{ filename: string; pdf: Buffer }> {
  if (invoice.number === null) throw new Error('a draft has no document');
  const { party } = snapshot;
  const address = [
    ...party.addressLines,
    ...(party.country ? [party.country] : []),
    ...(party.taxId ? [`Tax ID: ${party.taxId}`] : []),
  ].join('\n');
  const pdf = await renderInvoicePdf(
    {
      organizationName: snapshot.organizationName,
      number: invoice.number,
      issueDate: invoice.issueDate,
      dueDate: invoice.dueDate,
      party: { name: party.name, email: party.email ?? undefined, address },
      currency: invoice.currency,
      lines: invoice.lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unitAmountMinor: line.unitAmountMinor,
        taxRate: line.taxRate ?? undefined,
        totalMinor: line.totalMinor,
      })),
      subtotalMinor: invoice.subtotalMinor,
      taxMinor: invoice.taxMinor,
      totalMinor: invoice.totalMinor,
      amountPaidMinor: invoice.amountPaidMinor,
      balanceMinor: invoice.balanceMinor,
      notes: invoice.notes ?? undefined,
    },
    invoice.sentAt === null ? {} : { creationDate: new Date(invoice.sentAt) },
  );
  return { filename: invoiceFilename(invoice.number), pdf };
}
