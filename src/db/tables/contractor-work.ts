import type { PayCadence } from './contractors.ts';
import type { Blob, Minor, Timestamp } from './types.ts';

export const HOURS_STATUSES = ['submitted', 'approved', 'rejected', 'paid'] as const;
export type HoursStatus = (typeof HOURS_STATUSES)[number];

/** Hours worked (migration 0015): submitted -> approved -> paid, or submitted -> rejected. */
export interface ContractorHoursTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  /** ISO date (YYYY-MM-DD). */
  work_date: string;
  hours_hundredths: Minor;
  description: string;
  rate_minor: Minor;
  amount_minor: Minor;
  currency: string;
  status: HoursStatus;
  rejection_reason: string | null;
  /** `member` or `contractor` (the portal). */
  submitted_by_type: 'member' | 'contractor';
  submitted_by_id: string;
  decided_by: string | null;
  decided_at: Timestamp | null;
  payout_id: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type AgreementStatus = 'sent' | 'signed' | 'voided';

/** An agreement sent to a contractor: the exact document, then the signature (migration 0015). */
export interface ContractorAgreementsTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  template_id: string;
  title: string;
  media_type: string;
  file_name: string;
  document: Blob;
  /** Lowercase hex SHA-256 of `document`: what the signature covers. */
  document_sha256: string;
  status: AgreementStatus;
  signed_at: Timestamp | null;
  signed_name: string | null;
  signed_address: string | null;
  signed_user_agent: string | null;
  signed_pdf: Blob | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A payout to a contractor (the table keeps its 0002 name): unpaid -> paid. */
export interface ContractorPaymentsTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  amount_minor: Minor;
  currency: string;
  status: 'unpaid' | 'paid';
  pay_cadence: PayCadence;
  period_start: string;
  period_end: string;
  paid_on: string | null;
  reference: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContractorPayoutLinesTable {
  id: string;
  organization_id: string;
  payout_id: string;
  position: number;
  kind: 'hours' | 'fixed';
  hours_id: string | null;
  description: string;
  amount_minor: Minor;
}

export interface ContractorWorkTables {
  contractor_hours: ContractorHoursTable;
  contractor_agreements: ContractorAgreementsTable;
  contractor_payments: ContractorPaymentsTable;
  contractor_payout_lines: ContractorPayoutLinesTable;
}
