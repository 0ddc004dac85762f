import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {
  InvoiceLinesTable,
  InvoicePaymentsTable,
  InvoicesTable,
  PartiesTable,
} from '../../db/tables/invoicing.ts';
import { asIso, asIsoOrNull, asJson, asMinor } from '../../db/values.ts';
import type { Clock } from '../../lib/clock.ts';
import { type IsoDate, localDateIn } from '../calendar.ts';
import type { InvoiceStatus } from '../status.ts';
import type { BillingSnapshot, Invoice, InvoiceLine, InvoicePayment, Party, PaymentMethod } from './model.ts';

// Money columns hold at most 9007199254740991 (docs/decisions.md, money range), so both drivers
// return them exactly (better-sqlite3 as number, pg as string); asMinor makes them bigint.

export function toParty(row: Selectable<PartiesTable>): Party {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    addressLines: asJson<string[]>(row.address_lines),
    country: row.country,
    taxId: row.tax_id,
    defaultCurrency: row.default_currency,
    revision: row.revision,
    createdAt: asIso(row.created_at),
    updatedAt: asIso(row.updated_at),
  };
}

export function toInvoiceLine(row: Selectable<InvoiceLinesTable>): InvoiceLine {
  return {
    id: row.id,
    position: row.position,
    description: row.description,
    quantity: row.quantity,
    unitAmountMinor: asMinor(row.unit_amount_minor),
    taxRate: row.tax_rate,
    subtotalMinor: asMinor(row.subtotal_minor),
    taxMinor: asMinor(row.tax_minor),
    totalMinor: asMinor(row.total_minor),
  };
}

export function toInvoicePayment(row: Selectable<InvoicePaymentsTable>): InvoicePayment {
  return {
    id: row.id,
    amountMinor: asMinor(row.amount_minor),
    paidOn: row.paid_on,
    method: row.method as PaymentMethod,
    reference: row.reference,
    createdAt: asIso(row.created_at),
  };
}

/** An invoice row without lines and payments (lists); `loadInvoice` fills them in. */
export function toInvoice(
  row: Selectable<InvoicesTable>,
  lines: InvoiceLine[] = [],
  payments: InvoicePayment[] = [],
): Invoice {
  return {
    id: row.id,
    organizationId: row.organization_id,
    partyId: row.party_id,
    number: row.number,
    status: row.status as InvoiceStatus,
    currency: row.currency,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    paymentTermsDays: row.payment_terms_days,
    scheduledSendDate: row.scheduled_send_date,
    subtotalMinor: asMinor(row.subtotal_minor),
    taxMinor: asMinor(row.tax_minor),
    totalMinor: asMinor(row.total_minor),
    amountPaidMinor: asMinor(row.amount_paid_minor),
    balanceMinor: asMinor(row.balance_minor),
    notes: row.notes,
    billingSnapshot: row.billing_snapshot === null ? null : asJson<BillingSnapshot>(row.billing_snapshot),
    scheduleId: row.schedule_id,
    scheduleOccurrence: row.schedule_occurrence,
    sentAt: asIsoOrNull(row.sent_at),
    paidAt: asIsoOrNull(row.paid_at),
    voidedAt: asIsoOrNull(row.voided_at),
    voidReason: row.void_reason,
    revision: row.revision,
    createdAt: asIso(row.created_at),
    updatedAt: asIso(row.updated_at),
    lines,
    payments,
  };
}

/** Invoices of one organization (never any other), aliased `i`. */
export function selectInvoices(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('invoices as i').selectAll('i').where('i.organization_id', '=', organizationId);
}

/** One invoice with its lines (in order) and payments (oldest first), or undefined. */
export async function loadInvoice(
  db: Kysely<Database>,
  organizationId: string,
  invoiceId: string,
): Promise<Invoice | undefined> {
  const row = await selectInvoices(db, organizationId).where('i.id', '=', invoiceId).executeTakeFirst();
  if (!row) return undefined;
  const [lines, payments] = await Promise.all([
    db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .where('organization_id', '=', organizationId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('invoice_payments')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return toInvoice(row, lines.map(toInvoiceLine), payments.map(toInvoicePayment));
}

export async function loadParty(
  db: Kysely<Database>,
  organizationId: string,
  partyId: string,
): Promise<Party | undefined> {
  const row = await db
    .selectFrom('parties')
    .selectAll()
    .where('id', '=', partyId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ? toParty(row) : undefined;
}

export async function loadOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<{ name: string; timeZone: string }> {
  const row = await db
    .selectFrom('organizations')
    .select(['name', 'time_zone'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { name: row.name, timeZone: row.time_zone };
}

/** The organization's calendar date now (its IANA time zone; default UTC). */
export async function organizationToday(
  db: Kysely<Database>,
  organizationId: string,
  clock: Clock,
): Promise<IsoDate> {
  const { timeZone } = await loadOrganization(db, organizationId);
  return localDateIn(timeZone, clock.now());
}
