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

export interface ContractorTables {
  job_roles: JobRolesTable;
  contractors: ContractorsTable;
  agreement_templates: AgreementTemplatesTable;
}
