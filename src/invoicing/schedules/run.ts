import { AppError } from '../../contract/errors.ts';
import { asBool, asJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import type { Occurrence } from '../cadence.ts';
import { compareDates } from '../calendar.ts';
import { InvoicingError } from '../errors.ts';
import { createDraftInvoice, sendInvoice } from '../invoices/index.ts';
import { scheduleEventData } from './events.ts';
import { mailRunProblem } from './notices.ts';
import type { ScheduleRow, StoredTemplate } from './records.ts';
import { domainSchedule, findSchedule, scheduleToday, tryUpdateSchedule } from './repository.ts';
import { dueRunAction, nextRunAfter } from './timing.ts';
import type { InvoicingRuntime } from './work.ts';
import { sweepZones } from './work.ts';

export const RUN_JOB = 'invoices.schedules.run';

/** How far a slot gets: `full` = draft (+ send when autoSend); after a refusal, `draft` then `none`. */
type Attempt = 'full' | 'draft' | 'none';

/**
 * Makes every due slot of active recurring schedules: one transaction per slot, oldest first. Each
 * slot advances the schedule with a compare-and-set on its revision and inserts its
 * schedule_runs row (unique per schedule and date), so with any number of workers a slot is made
 * exactly once; the loser of a race sees the changed revision and does nothing. Returns the
 * number of slots handled (the job runs again at once while there is work).
 */
export async function runDueSchedules(services: InvoicingRuntime, limit = 50): Promise<number> {
  return sweepZones(services, 'recurring', async (zone, today) => {
    let handled = 0;
    const due = await services.db.kysely
      .selectFrom('invoice_schedules')
      .select(['id', 'organization_id'])
      .where('kind', '=', 'recurring')
      .where('status', '=', 'active')
      .where('time_zone', '=', zone)
      .where('next_run_date', '<=', today)
      .orderBy('next_run_date')
      .orderBy('id')
      .limit(limit)
      .execute();
    for (const row of due) {
      try {
        handled += await runSlot(services, row.organization_id, row.id);
      } catch (error) {
        // Not a refusal (those are recorded): logged, and the slot stays due for the next run.
        services.logger.error({ err: error, job: RUN_JOB, scheduleId: row.id }, 'recurring run failed');
      }
    }
    return handled;
  });
}

/**
 * A business refusal (party without email, a template the invoice rules now refuse) must not
 * block the schedule forever: the slot is retried keeping only the draft, then with no invoice,
 * and recorded as failed with an invoice.schedule.run_failed event. Other errors (database down)
 * propagate: nothing was written and the slot stays due.
 */
async function runSlot(services: InvoicingRuntime, organizationId: string, id: string): Promise<number> {
  let errorCode: string | null = null;
  for (const attempt of ['full', 'draft', 'none'] as const) {
    try {
      return await withUnit(
        services,
        { organizationId: organizationId, actor: { type: 'job', job: RUN_JOB }, operation: RUN_JOB },
        (unit) => makeSlot(unit, id, attempt, errorCode, services.config.schedules.catchUpDays),
      );
    } catch (error) {
      if (!(error instanceof AppError || error instanceof InvoicingError)) throw error;
      errorCode ??= error.code;
      services.logger.warn({ err: error, scheduleId: id, attempt }, 'recurring invoice refused');
    }
  }
  return 0;
}

const MAX_SKIPPED_PER_RUN = 1000;

async function makeSlot(
  unit: UnitOfWork,
  id: string,
  attempt: Attempt,
  errorCode: string | null,
  catchUpDays: number,
) {
  const row = await findSchedule(unit.db, unit.organizationId, id);
  if (row?.kind !== 'recurring' || row.status !== 'active' || row.next_run_date === null) return 0;
  const now = unit.clock.now();
  const today = scheduleToday(row, now);
  const runDate = row.next_run_date;
  if (compareDates(runDate, today) > 0) return 0;
  const schedule = domainSchedule(row);
  // Slots older than the catch-up window are skipped together, in one transaction.
  const skipped: string[] = [];
  let slot: Occurrence | null = { index: -1, date: runDate };
  while (
    slot !== null &&
    dueRunAction(slot.date, today, catchUpDays) === 'skip' &&
    skipped.length < MAX_SKIPPED_PER_RUN
  ) {
    skipped.push(slot.date);
    slot = nextRunAfter(schedule, slot.date, row.occurrences_created);
  }
  const makesInvoice = skipped.length === 0 && attempt !== 'none';
  const issued = row.occurrences_created + (makesInvoice ? 1 : 0);
  const handled = skipped.length > 0 ? skipped : [runDate];
  const lastHandled = handled[handled.length - 1] ?? runDate;
  const next = skipped.length > 0 ? slot : nextRunAfter(schedule, runDate, issued);
  const after = await tryUpdateSchedule(
    unit.db,
    row,
    {
      next_run_date: next?.date ?? null,
      last_run_date: lastHandled,
      occurrences_created: issued,
      ...(next === null ? { status: 'completed', completed_at: now.toISOString() } : {}),
    },
    now,
  );
  // Another worker (or a member's pause) changed the schedule first: that one wins.
  if (!after) return 0;
  const runIds = handled.map(() => newId());
  const inserted = await unit.db
    .insertInto('schedule_runs')
    .values(
      handled.map((date, i) => ({
        id: runIds[i] ?? newId(),
        organization_id: unit.organizationId,
        schedule_id: row.id,
        run_date: date,
        outcome: skipped.length > 0 ? 'skipped' : 'failed',
        invoice_id: null,
        error_code: skipped.length > 0 ? null : errorCode,
        created_at: now.toISOString(),
      })),
    )
    .onConflict((oc) => oc.columns(['schedule_id', 'run_date']).doNothing())
    .executeTakeFirst();
  await unit.audit({
    recordType: 'invoice_schedule',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: after.revision,
  });
  const subject = { type: 'invoice_schedule', id: row.id };
  if (skipped.length > 0) {
    await unit.emit({
      type: 'invoice.schedule.run_skipped',
      subject,
      data: { ...scheduleEventData(after), runDates: skipped },
    });
    await mailRunProblem(unit, after, { problem: 'skipped', runDates: skipped });
  } else if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) {
    // (Zero rows would mean the slot already has its run: never a second invoice.)
    await makeInvoice(unit, row, {
      runId: runIds[0] ?? '',
      runDate,
      today,
      issued,
      attempt,
      errorCode,
      after,
    });
  }
  if (next === null) {
    await unit.emit({ type: 'invoice.schedule.completed', subject, data: scheduleEventData(after) });
  }
  return 1;
}

async function makeInvoice(
  unit: UnitOfWork,
  row: ScheduleRow,
  slot: {
    runId: string;
    runDate: string;
    today: string;
    issued: number;
    attempt: Attempt;
    errorCode: string | null;
    after: ScheduleRow;
  },
): Promise<void> {
  let invoiceId: string | null = null;
  let errorCode = slot.errorCode;
  if (slot.attempt !== 'none') {
    const template = asJson<StoredTemplate>(row.template);
    let invoice = await createDraftInvoice(unit, {
      partyId: row.party_id,
      currency: row.currency,
      lines: template.lines,
      // Dated the day it is actually made (the slot date unless caught up after downtime), so a
      // late invoice never arrives already overdue.
      issueDate: slot.today,
      paymentTermsDays: template.paymentTermsDays,
      notes: template.notes,
      scheduleId: row.id,
      scheduleOccurrence: slot.issued,
    });
    if (slot.attempt === 'full' && asBool(row.auto_send)) invoice = await sendInvoice(unit, invoice.id);
    invoiceId = invoice.id;
    const failedSend = slot.attempt === 'draft' && asBool(row.auto_send);
    await unit.db
      .updateTable('schedule_runs')
      .set({
        invoice_id: invoice.id,
        outcome: failedSend ? 'failed' : invoice.status === 'draft' ? 'draft' : 'sent',
      })
      .where('id', '=', slot.runId)
      .execute();
    if (!failedSend) errorCode = null;
  }
  if (errorCode !== null) {
    await unit.emit({
      type: 'invoice.schedule.run_failed',
      subject: { type: 'invoice_schedule', id: row.id },
      data: { ...scheduleEventData(slot.after), runDate: slot.runDate, errorCode, draftInvoiceId: invoiceId },
    });
    await mailRunProblem(unit, slot.after, {
      problem: 'failed',
      runDate: slot.runDate,
      errorCode,
      draftKept: invoiceId !== null,
    });
  }
}
