import type { Json, Minor, Timestamp } from './types.ts';

/** Civil date `YYYY-MM-DD` (PostgreSQL `date` is parsed back to this string). */
export type CivilDateColumn = string;

export interface PartiesTable {
  id: string;
  organization_id: string;
  name: string;
  email: string | null;
  email_normalized: string | null;
  /** JSON array of strings. */
  address_lines: Json;
  country: string | null;
  tax_id: string | null;
  default_currency: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoicesTable {
  id: string;
  organization_id: string;
  party_id: string;
  number: string | null;
  /** draft | sent | paid | void (src/invoicing/status.ts). */
  status: string;
  currency: string;
  issue_date: CivilDateColumn;
  due_date: CivilDateColumn;
  payment_terms_days: number | null;
  scheduled_send_date: CivilDateColumn | null;
  subtotal_minor: Minor;
  tax_minor: Minor;
  total_minor: Minor;
  amount_paid_minor: Minor;
  balance_minor: Minor;
  notes: string | null;
  billing_snapshot: Json | null;
  schedule_id: string | null;
  schedule_occurrence: number | null;
  due_soon_notified_at: Timestamp | null;
  overdue_at: Timestamp | null;
  sent_at: Timestamp | null;
  paid_at: Timestamp | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoiceLinesTable {
  id: string;
  organization_id: string;
  invoice_id: string;
  position: number;
  description: string;
  quantity: string;
  unit_amount_minor: Minor;
  tax_rate: string | null;
  subtotal_minor: Minor;
  tax_minor: Minor;
  total_minor: Minor;
}

export interface InvoicePaymentsTable {
  id: string;
  organization_id: string;
  invoice_id: string;
  amount_minor: Minor;
  paid_on: CivilDateColumn;
  method: string;
  reference: string | null;
  created_at: Timestamp;
}

export interface InvoiceNumberSequencesTable {
  organization_id: string;
  last_value: number;
}

/** Tables of this area; each key is a table name, each value its row interface. */
export interface InvoicingTables {
  parties: PartiesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_payments: InvoicePaymentsTable;
  invoice_number_sequences: InvoiceNumberSequencesTable;
}
