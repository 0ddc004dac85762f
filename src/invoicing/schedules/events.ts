import type { ScheduleRow } from './records.ts';

/** The common part of every invoice.schedule.* event. */
export function scheduleEventData(row: ScheduleRow): Record<string, unknown> {
  return {
    kind: row.kind,
    status: row.status,
    name: row.name,
    partyId: row.party_id,
    currency: row.currency,
    invoiceId: row.invoice_id,
    nextRunDate: row.next_run_date,
    revision: row.revision,
  };
}
