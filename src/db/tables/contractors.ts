import type { Bool, Minor, Timestamp } from './types.ts';

export interface JobRolesTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  hourly_rate_minor: Minor | null;
  currency: string | null;
  pay_cadence: string | null;
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

export interface ContractorTables {
  job_roles: JobRolesTable;
  contractors: ContractorsTable;
}
