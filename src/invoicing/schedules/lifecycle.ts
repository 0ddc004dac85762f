import { AppError } from '../../contract/errors.ts';
import { loadForChange } from '../../unit/revision.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { scheduleEventData } from './events.ts';
import { markReachedInstallments } from './plan-context.ts';
import type { ScheduleRow } from './records.ts';
import { domainSchedule, requireSchedule, scheduleToday, updateSchedule } from './repository.ts';
import { nextRunFrom } from './timing.ts';

/**
 * State changes shared by recurring schedules and payment plans:
 *
 *   active --pause--> paused --resume--> active
 *   active|paused --cancel--> cancelled            (final)
 *   active --end reached / invoice paid--> completed (final)
 *
 * Each is a compare-and-set on the revision with an audit row and an event in the same transaction.
 */

export type ScheduleStatus = 'active' | 'paused' | 'cancelled' | 'completed';

export function invalidState(row: ScheduleRow, action: string): AppError {
  return new AppError('invalid_state', `A ${row.status} schedule cannot be ${action}.`, {
    details: { state: row.status },
  });
}

/**
 * Audit row and event of a schedule change; `before` is null for the creation. `extra` is the
 * event's own data beyond the common schedule fields (declared in its catalog entry).
 */
export async function recordChange(
  unit: UnitOfWork,
  before: ScheduleRow | null,
  after: ScheduleRow,
  event: string,
  extra: Record<string, unknown> = {},
) {
  await unit.audit({
    recordType: 'invoice_schedule',
    recordId: after.id,
    beforeRevision: before?.revision ?? null,
    afterRevision: after.revision,
  });
  await unit.emit({
    type: event,
    subject: { type: 'invoice_schedule', id: after.id },
    data: { ...scheduleEventData(after), ...extra },
  });
}

/** While paused nothing new is prepared or sent: no invoices, no notices, no installment reminders. */
export async function pauseSchedule(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
): Promise<ScheduleRow> {
  const row = await loadForChange(requireSchedule(unit.db, unit.organizationId, id), expectedRevision);
  if (row.status !== 'active') throw invalidState(row, 'paused');
  const now = unit.clock.now();
  const after = await updateSchedule(
    unit.db,
    row,
    { status: 'paused', paused_at: now.toISOString(), next_run_date: null },
    now,
  );
  await recordChange(unit, row, after, 'invoice.schedule.paused');
  return after;
}

/**
 * Resuming skips what was missed: a recurring schedule's next run is the first slot on or after
 * the resume day (and after its last run); a plan sends no overdue notice for installments that
 * fell due while paused (active_since). A schedule whose end passed while paused completes.
 */
export async function resumeSchedule(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
): Promise<ScheduleRow> {
  const row = await loadForChange(requireSchedule(unit.db, unit.organizationId, id), expectedRevision);
  if (row.status !== 'paused') throw invalidState(row, 'resumed');
  const now = unit.clock.now();
  const today = scheduleToday(row, now);
  let nextRunDate: string | null = null;
  // What the schedule becomes instead of active: its end passed, or its invoice was settled.
  let final: 'completed' | 'cancelled' | null = null;
  if (row.kind === 'recurring') {
    const next = nextRunFrom(domainSchedule(row), today, {
      issuedCount: row.occurrences_created,
      lastRunDate: row.last_run_date,
    });
    nextRunDate = next?.date ?? null;
    if (next === null) final = 'completed';
  } else {
    const invoiceStatus = await planInvoiceStatus(unit, row);
    if (invoiceStatus === 'paid') final = 'completed';
    if (invoiceStatus === 'void') final = 'cancelled';
  }
  const at = now.toISOString();
  const after = await updateSchedule(
    unit.db,
    row,
    final === 'completed'
      ? { status: final, completed_at: at, next_run_date: null, paused_at: null }
      : final === 'cancelled'
        ? { status: final, cancelled_at: at, next_run_date: null, paused_at: null }
        : { status: 'active', next_run_date: nextRunDate, paused_at: null, active_since: today },
    now,
  );
  await recordChange(unit, row, after, 'invoice.schedule.resumed');
  if (final !== null) await recordChange(unit, after, after, `invoice.schedule.${final}`);
  return after;
}

export async function cancelSchedule(
  unit: UnitOfWork,
  id: string,
  expectedRevision: number,
): Promise<ScheduleRow> {
  const row = await loadForChange(requireSchedule(unit.db, unit.organizationId, id), expectedRevision);
  if (row.status !== 'active' && row.status !== 'paused') throw invalidState(row, 'cancelled');
  // Payments that reached installments while the plan was live stay recorded in the frozen plan.
  if (row.kind === 'payment_plan') await markReachedInstallments(unit, row.id);
  const now = unit.clock.now();
  const after = await updateSchedule(
    unit.db,
    row,
    { status: 'cancelled', cancelled_at: now.toISOString(), next_run_date: null },
    now,
  );
  await recordChange(unit, row, after, 'invoice.schedule.cancelled');
  return after;
}

/** The status of a plan's invoice ('paid' and 'void' end the plan). */
async function planInvoiceStatus(unit: UnitOfWork, row: ScheduleRow): Promise<string | undefined> {
  if (row.invoice_id === null) return undefined;
  const invoice = await unit.db
    .selectFrom('invoices')
    .select('status')
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.invoice_id)
    .executeTakeFirst();
  return invoice?.status;
}
