import { nextOccurrenceOnOrAfter, type Occurrence, type Schedule } from '../cadence.ts';
import { addDays, compareDates, daysBetween, type IsoDate } from '../calendar.ts';

/**
 * When a recurring schedule runs next. Pure: the operations and the worker pass "today" (the
 * schedule's local date) and the stored progress. Every rule is written down in
 * docs/invoicing.md ("Recurring invoices: runs, catch-up, pause and resume").
 */

export interface ScheduleProgressState {
  /** Invoices the schedule has produced (after_count counts these, not slots). */
  readonly issuedCount: number;
  /** Slot date of the last run (made, skipped or failed), or null before the first. */
  readonly lastRunDate: IsoDate | null;
}

function later(a: IsoDate, b: IsoDate): IsoDate {
  return compareDates(a, b) >= 0 ? a : b;
}

/**
 * The next slot to prepare: the first slot on or after today and after the last run. Used at
 * creation (past slots of a start date in the past are not back-filled), on resume (slots missed
 * while paused are skipped) and after an update of the cadence. Null when the schedule has ended.
 */
export function nextRunFrom(
  schedule: Schedule,
  today: IsoDate,
  progress: ScheduleProgressState,
): Occurrence | null {
  const notBefore = progress.lastRunDate === null ? today : later(today, addDays(progress.lastRunDate, 1));
  return nextOccurrenceOnOrAfter(schedule, notBefore, { issuedCount: progress.issuedCount });
}

/**
 * The slot after `runDate`, once that slot is done. Unlike nextRunFrom this does not jump to
 * today: after downtime the worker steps through each missed slot once, in order.
 */
export function nextRunAfter(schedule: Schedule, runDate: IsoDate, issuedCount: number): Occurrence | null {
  return nextOccurrenceOnOrAfter(schedule, addDays(runDate, 1), { issuedCount });
}

/**
 * Catch-up rule after downtime: a slot missed because no worker ran is still made (late, once,
 * oldest first) while it is at most `catchUpDays` old; an older one is skipped and recorded as
 * skipped. A slot due today is always made.
 */
export function dueRunAction(runDate: IsoDate, today: IsoDate, catchUpDays: number): 'run' | 'skip' {
  return daysBetween(runDate, today) > catchUpDays ? 'skip' : 'run';
}

/**
 * Whether today is inside the notice window of a run: strictly before the run date and at most
 * `noticeDays` before it. A schedule created less than `noticeDays` before its run is noticed at once.
 */
export function inNoticeWindow(runDate: IsoDate, today: IsoDate, noticeDays: number): boolean {
  const ahead = daysBetween(today, runDate);
  return ahead > 0 && ahead <= noticeDays;
}
