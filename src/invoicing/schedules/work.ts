import type { UnitOfWork, UnitRuntime } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { localDateIn } from '../calendar.ts';

/** Settings of the schedule jobs (ACCOUNTING_SCHEDULE_*, ACCOUNTING_DUE_SOON_DAYS in src/config.ts). */
export interface ScheduleSettings {
  noticeDays: number;
  catchUpDays: number;
  dueSoonDays: number;
}

/** What the invoicing jobs need from the process: the unit-of-work runtime and their settings. */
export type InvoicingRuntime = UnitRuntime & { config: { schedules: ScheduleSettings } };

/**
 * One item of an invoicing job, in its own transaction as the system actor `job:<job>`. An
 * unexpected failure is logged and the item skipped for this run (it is still due, so the next
 * run tries it again): one broken record must not starve every record queued behind it.
 */
export async function eachItem(
  services: InvoicingRuntime,
  job: string,
  item: { organizationId: string; id: string },
  work: (unit: UnitOfWork) => Promise<number>,
): Promise<number> {
  try {
    return await withUnit(
      services,
      { organizationId: item.organizationId, actor: { type: 'job', job: job }, operation: job },
      work,
    );
  } catch (error) {
    services.logger.error({ err: error, job, itemId: item.id }, 'invoicing job item failed');
    return 0;
  }
}

/**
 * The per-time-zone sweep of the schedule jobs: calls `sweep` once per zone of active schedules of
 * `kind`, with that zone's today (from one reading of the clock); returns the items handled.
 */
export async function sweepZones(
  services: InvoicingRuntime,
  kind: 'recurring' | 'payment_plan',
  sweep: (zone: string, today: string) => Promise<number>,
): Promise<number> {
  const now = services.clock.now();
  let handled = 0;
  for (const zone of await activeZones(services, kind)) handled += await sweep(zone, localDateIn(zone, now));
  return handled;
}

/** Distinct zones of active schedules of a kind, so "today" is computed once per zone. */
async function activeZones(
  services: InvoicingRuntime,
  kind: 'recurring' | 'payment_plan',
): Promise<string[]> {
  const rows = await services.db.kysely
    .selectFrom('invoice_schedules')
    .select('time_zone')
    .distinct()
    .where('kind', '=', kind)
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => row.time_zone);
}
