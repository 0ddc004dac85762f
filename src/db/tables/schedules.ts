import type { Bool, Json, Minor, Timestamp } from './types.ts';

/** Civil date `YYYY-MM-DD` (PostgreSQL `date` is parsed back to this string). */
type CivilDate = string;

export interface InvoiceSchedulesTable {
  id: string;
  organization_id: string;
  /** recurring | payment_plan */
  kind: string;
  /** active | paused | cancelled | completed */
  status: string;
  name: string;
  party_id: string;
  currency: string;
  template: Json | null;
  cadence: Json | null;
  start_date: CivilDate;
  end_condition: Json;
  auto_send: Bool;
  invoice_id: string | null;
  time_zone: string;
  next_run_date: CivilDate | null;
  last_run_date: CivilDate | null;
  occurrences_created: number;
  active_since: CivilDate;
  paused_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  completed_at: Timestamp | null;
  revision: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScheduleRunsTable {
  id: string;
  organization_id: string;
  schedule_id: string;
  run_date: CivilDate;
  /** draft | sent | skipped | failed */
  outcome: string;
  invoice_id: string | null;
  error_code: string | null;
  created_at: Timestamp;
}

export interface PaymentPlanInstallmentsTable {
  id: string;
  organization_id: string;
  schedule_id: string;
  invoice_id: string;
  sequence: number;
  due_date: CivilDate;
  amount_minor: Minor;
  paid_threshold_minor: Minor;
  reminded_at: Timestamp | null;
  paid_at: Timestamp | null;
  created_at: Timestamp;
}

export interface InvoicingNoticesTable {
  id: string;
  organization_id: string;
  target_type: string;
  target_id: string;
  kind: string;
  target_date: CivilDate;
  created_at: Timestamp;
}

/** Tables of this area; each key is a table name, each value its row interface. */
export interface ScheduleTables {
  invoice_schedules: InvoiceSchedulesTable;
  schedule_runs: ScheduleRunsTable;
  payment_plan_installments: PaymentPlanInstallmentsTable;
  invoicing_notices: InvoicingNoticesTable;
}
