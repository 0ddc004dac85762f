import type { IsoDate } from '../calendar.ts';
import type { InvoiceStatus } from '../status.ts';

/** Payment methods accepted by invoices.payments.record. */
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'check', 'direct_debit', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface InvoiceLine {
  id: string;
  position: number;
  description: string;
  /** Decimal string as given ("1.5"). */
  quantity: string;
  unitAmountMinor: bigint;
  /** Percentage as given ("13"), or null when untaxed. */
  taxRate: string | null;
  subtotalMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
}

export interface InvoicePayment {
  id: string;
  amountMinor: bigint;
  paidOn: IsoDate;
  method: PaymentMethod;
  reference: string | null;
  createdAt: string;
}

/** What was printed on the invoice when it was sent; later party edits do not change it. */
export interface BillingSnapshot {
  organizationName: string;
  party: {
    name: string;
    email: string | null;
    addressLines: string[];
    country: string | null;
    taxId: string | null;
  };
}

/** An invoice as domain code sees it: camelCase, money as bigint minor units, dates as YYYY-MM-DD. */
export interface Invoice {
  id: string;
  organizationId: string;
  partyId: string;
  number: string | null;
  status: InvoiceStatus;
  currency: string;
  issueDate: IsoDate;
  dueDate: IsoDate;
  paymentTermsDays: number | null;
  scheduledSendDate: IsoDate | null;
  subtotalMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
  amountPaidMinor: bigint;
  balanceMinor: bigint;
  notes: string | null;
  billingSnapshot: BillingSnapshot | null;
  scheduleId: string | null;
  scheduleOccurrence: number | null;
  sentAt: string | null;
  paidAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
  lines: InvoiceLine[];
  payments: InvoicePayment[];
}

export interface Party {
  id: string;
  name: string;
  email: string | null;
  addressLines: string[];
  country: string | null;
  taxId: string | null;
  defaultCurrency: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * Data of every invoice.* event except invoice.payment_recorded's extra fields. For invoice.paid
 * it is exactly the contract's list; money as decimal strings, dates as ISO dates.
 */
export function invoiceEventData(invoice: Invoice) {
  return {
    number: invoice.number,
    status: invoice.status,
    partyId: invoice.partyId,
    currency: invoice.currency,
    totalMinor: invoice.totalMinor.toString(),
    amountPaidMinor: invoice.amountPaidMinor.toString(),
    balanceMinor: invoice.balanceMinor.toString(),
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    scheduledSendDate: invoice.scheduledSendDate,
  };
}
