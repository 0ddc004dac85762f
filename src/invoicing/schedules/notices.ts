import { asBool, asJson } from '../../db/values.ts';
import {
  type ScheduleRunProblem,
  scheduleRunProblem,
  scheduleUpcomingNotice,
} from '../../mail/templates/index.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { addDays, localDateIn } from '../calendar.ts';
import { loadOrganization, loadParty } from '../invoices/index.ts';
import { claimNotice, staffEmails } from '../invoices/notices.ts';
import { formatMoneyForDisplay, parseCurrency } from '../money.ts';
import { scheduleEventData } from './events.ts';
import { type ScheduleRow, type StoredTemplate, templateTotal } from './records.ts';
import { findSchedule } from './repository.ts';
import { inNoticeWindow } from './timing.ts';
import type { InvoicingRuntime } from './work.ts';
import { eachItem, sweepZones } from './work.ts';

export const NOTICE_JOB = 'invoices.schedules.notify';

/**
 * Emails the schedule's admin and finance members that a run failed or runs were skipped, in the
 * run's transaction: the mail goes out exactly when the run_failed / run_skipped event does.
 */
export async function mailRunProblem(
  unit: UnitOfWork,
  row: ScheduleRow,
  problem: ScheduleRunProblem,
): Promise<void> {
  const recipients = await staffEmails(unit.db, unit.organizationId);
  if (recipients.length === 0) return;
  const organization = await loadOrganization(unit.db, unit.organizationId);
  const party = await loadParty(unit.db, unit.organizationId, row.party_id);
  const mail = scheduleRunProblem({
    organizationName: organization.name,
    scheduleName: row.name,
    partyName: party?.name ?? 'the party',
    ...problem,
  });
  await unit.sendMail({ to: recipients, ...mail });
}

/**
 * The organization is told ACCOUNTING_SCHEDULE_NOTICE_DAYS before each recurring invoice
 * (invoice.schedule.upcoming + an email to its admin and finance members), once per run date.
 * Paused, cancelled and completed schedules are never noticed.
 */
export async function noticeUpcomingRuns(services: InvoicingRuntime, limit = 50): Promise<number> {
  const noticeDays = services.config.schedules.noticeDays;
  if (noticeDays === 0) return 0;
  return sweepZones(services, 'recurring', async (zone, today) => {
    let handled = 0;
    const rows = await services.db.kysely
      .selectFrom('invoice_schedules as s')
      .select(['s.id', 's.organization_id'])
      .where('s.kind', '=', 'recurring')
      .where('s.status', '=', 'active')
      .where('s.time_zone', '=', zone)
      .where('s.next_run_date', '>', today)
      .where('s.next_run_date', '<=', addDays(today, noticeDays))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('invoicing_notices as n')
              .select('n.id')
              .whereRef('n.target_id', '=', 's.id')
              .where('n.kind', '=', 'invoice.schedule.upcoming')
              .whereRef('n.target_date', '=', 's.next_run_date'),
          ),
        ),
      )
      .orderBy('s.next_run_date')
      .limit(limit)
      .execute();
    for (const row of rows) {
      handled += await eachItem(
        services,
        NOTICE_JOB,
        { organizationId: row.organization_id, id: row.id },
        (unit) => noticeOne(unit, row.id, noticeDays),
      );
    }
    return handled;
  });
}

async function noticeOne(unit: UnitOfWork, id: string, noticeDays: number): Promise<number> {
  const row = await findSchedule(unit.db, unit.organizationId, id);
  if (row?.status !== 'active' || row.kind !== 'recurring' || row.next_run_date === null) return 0;
  const today = localDateIn(row.time_zone, unit.clock.now());
  const runDate = row.next_run_date;
  if (!inNoticeWindow(runDate, today, noticeDays)) return 0;
  const target = { type: 'invoice_schedule', id: row.id, kind: 'invoice.schedule.upcoming', date: runDate };
  if (!(await claimNotice(unit, target))) return 0;
  const total = templateTotal(asJson<StoredTemplate>(row.template));
  await unit.emit({
    type: 'invoice.schedule.upcoming',
    subject: { type: 'invoice_schedule', id: row.id },
    data: {
      ...scheduleEventData(row),
      runDate,
      amountMinor: total.toString(),
      autoSend: asBool(row.auto_send),
    },
  });
  const recipients = await staffEmails(unit.db, unit.organizationId);
  const party = await loadParty(unit.db, unit.organizationId, row.party_id);
  if (recipients.length > 0) {
    const organization = await loadOrganization(unit.db, unit.organizationId);
    const mail = scheduleUpcomingNotice({
      organizationName: organization.name,
      scheduleType: 'recurring-invoice',
      scheduleName: row.name,
      partyName: party?.name ?? 'the party',
      amountFormatted: formatMoneyForDisplay(parseCurrency(row.currency), total),
      nextRunDate: runDate,
    });
    await unit.sendMail({ to: recipients, ...mail });
  }
  return 1;
}
