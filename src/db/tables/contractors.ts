import type { Blob, Bool, Minor, Timestamp } from './types.ts';

export const PAY_CADENCES = ['weekly', 'biweekly', 'semimonthly', 'monthly'] as const;
export type PayCadence = (typeof PAY_CADENCES)[number];

export interface JobRolesTable {
  id: string;
  organization_id: string;
  name: string;
  name_normalized: string;
  description: string | null;
  hourly_rate_minor: Minor;
  currency: string;
  pay_cadence: PayCadence;
  active: Bool;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContractorsTable {
  id: string;
  organization_id: string;
  display_name: string;
  legal_name: string;
  email: string;
  email_normalized: string;
  country: string | null;
  active: Bool;
  job_role_id: string | null;
  joined_at: Timestamp | null;
  tax_residency: string | null;
  tax_services_in_canada: Bool | null;
  tax_identity_confirmed: Bool;
  tax_reviewed_at: Timestamp | null;
  tax_reviewed_by: string | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export const TEMPLATE_KINDS = ['markdown_draft', 'uploaded_original'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export interface AgreementTemplatesTable {
  id: string;
  organization_id: string;
  name: string;
  kind: TemplateKind;
  media_type: string;
  /** The uploaded file's name; null for Markdown drafts. */
  file_name: string | null;
  size_bytes: number;
  /** Lowercase hex SHA-256 of `content`. */
  sha256: string;
  content: Blob;
  /** Member id of the creator. */
  created_by: string;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A template-based agreement on file for a contractor; "on file" while `voided_at` is null. */
export interface ContractorAgreementsTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  template_id: string;
  on_file_at: Timestamp;
  voided_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Hours worked; `pending` until paid. */
export interface ContractorHoursTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  /** ISO date (YYYY-MM-DD). */
  work_date: string;
  hours_hundredths: Minor;
  status: 'pending' | 'paid';
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A payment owed to a contractor; `unpaid` until paid out. */
export interface ContractorPaymentsTable {
  id: string;
  organization_id: string;
  contractor_id: string;
  amount_minor: Minor;
  currency: string;
  status: 'unpaid' | 'paid';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContractorTables {
  job_roles: JobRolesTable;
  contractors: ContractorsTable;
  agreement_templates: AgreementTemplatesTable;
  contractor_agreements: ContractorAgreementsTable;
  contractor_hours: ContractorHoursTable;
  contractor_payments: ContractorPaymentsTable;
}
