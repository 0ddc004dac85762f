import {
  addDays,
  compareDates,
  dateInMonth,
  daysBetween,
  type IsoDate,
  monthIndexOf,
  parseIsoDate,
} from './calendar.ts';
import { InvoicingError } from './errors.ts';

/** Quarterly is monthly every 3 months and yearly every 12; one shape keeps one set of rules. */
export type Cadence =
  | { readonly kind: 'weekly'; readonly intervalWeeks: number }
  | { readonly kind: 'monthly'; readonly dayOfMonth: number | 'last'; readonly intervalMonths: number };

export type ScheduleEnd =
  | { readonly kind: 'never' }
  /** Inclusive: an occurrence falling on `date` still happens. */
  | { readonly kind: 'on_date'; readonly date: IsoDate }
  | { readonly kind: 'after_count'; readonly count: number };

export interface Schedule {
  readonly cadence: Cadence;
  readonly startDate: IsoDate;
  readonly end: ScheduleEnd;
}

/** Occurrence `index` is the index-th slot of the schedule, counted from 0. */
export interface Occurrence {
  readonly index: number;
  readonly date: IsoDate;
}

export const MAX_INTERVAL_WEEKS = 52;
export const MAX_INTERVAL_MONTHS = 12;
export const MAX_END_COUNT = 10_000;
const LAST_MONTH_INDEX = 9999 * 12 + 11;
const LAST_DATE = '9999-12-31';

const isIntIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

export function validateCadence(cadence: Cadence, field = 'cadence'): Cadence {
  const ok =
    cadence.kind === 'weekly'
      ? isIntIn(cadence.intervalWeeks, 1, MAX_INTERVAL_WEEKS)
      : (cadence.dayOfMonth === 'last' || isIntIn(cadence.dayOfMonth, 1, 31)) &&
        isIntIn(cadence.intervalMonths, 1, MAX_INTERVAL_MONTHS);
  if (!ok) throw new InvoicingError('invalid_cadence', JSON.stringify(cadence), field);
  return cadence;
}

export const weekly = (): Cadence => everyNWeeks(1);
export const everyNWeeks = (intervalWeeks: number): Cadence =>
  validateCadence({ kind: 'weekly', intervalWeeks });
export const monthlyOnDay = (dayOfMonth: number, intervalMonths = 1): Cadence =>
  validateCadence({ kind: 'monthly', dayOfMonth, intervalMonths });
export const monthlyOnLastDay = (intervalMonths = 1): Cadence =>
  validateCadence({ kind: 'monthly', dayOfMonth: 'last', intervalMonths });
export const quarterly = (dayOfMonth: number | 'last'): Cadence =>
  validateCadence({ kind: 'monthly', dayOfMonth, intervalMonths: 3 });
/** Yearly in the start date's month: day 29 started in February gives Feb 28 in common years. */
export const yearly = (dayOfMonth: number | 'last'): Cadence =>
  validateCadence({ kind: 'monthly', dayOfMonth, intervalMonths: 12 });

export function validateSchedule(schedule: Schedule): Schedule {
  validateCadence(schedule.cadence);
  parseIsoDate(schedule.startDate, 'startDate');
  const { end } = schedule;
  if (end.kind === 'on_date') {
    parseIsoDate(end.date, 'end.date');
    if (compareDates(end.date, schedule.startDate) < 0) {
      throw new InvoicingError('invalid_schedule_end', 'end date is before the start date', 'end.date');
    }
  } else if (end.kind === 'after_count' && !isIntIn(end.count, 1, MAX_END_COUNT)) {
    throw new InvoicingError('invalid_schedule_end', `count must be 1 to ${MAX_END_COUNT}`, 'end.count');
  }
  return schedule;
}

/** First month holding a slot: the start month if its slot is not before the start date. */
function anchorMonth(cadence: Cadence & { kind: 'monthly' }, startDate: IsoDate): number {
  const startMonth = monthIndexOf(startDate);
  return compareDates(dateInMonth(startMonth, cadence.dayOfMonth), startDate) < 0
    ? startMonth + 1
    : startMonth;
}

/**
 * Date of slot n, computed from the start and n alone (never from slot n-1), so clamping in a
 * short month cannot leak into later months: day 31 gives Jan 31, Feb 28, Mar 31. Null when
 * the slot falls after 9999-12-31.
 */
export function occurrenceDate(cadence: Cadence, startDate: IsoDate, n: number): IsoDate | null {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError('occurrence index must be a non-negative integer');
  if (cadence.kind === 'weekly') {
    const offset = n * 7 * cadence.intervalWeeks;
    return offset > daysBetween(startDate, LAST_DATE) ? null : addDays(startDate, offset);
  }
  const month = anchorMonth(cadence, startDate) + n * cadence.intervalMonths;
  return month > LAST_MONTH_INDEX ? null : dateInMonth(month, cadence.dayOfMonth);
}

/** Progress of a running schedule: how many invoices it has actually produced. */
export interface ScheduleProgress {
  readonly issuedCount: number;
}

/**
 * Whether slot `index` on `date` is inside the end condition. With `progress`, after_count
 * counts invoices actually produced (slots skipped while paused do not use up the count);
 * without it, it counts slots, which is the same thing for a schedule never paused.
 */
function withinEnd(end: ScheduleEnd, occurrence: Occurrence, progress?: ScheduleProgress): boolean {
  switch (end.kind) {
    case 'never':
      return true;
    case 'on_date':
      return compareDates(occurrence.date, end.date) <= 0;
    case 'after_count':
      return (progress === undefined ? occurrence.index : progress.issuedCount) < end.count;
  }
}

/** Slot n if the schedule reaches it (un-paused projection), else null. */
export function nthOccurrence(schedule: Schedule, n: number): IsoDate | null {
  const date = occurrenceDate(schedule.cadence, schedule.startDate, n);
  return date !== null && withinEnd(schedule.end, { index: n, date }) ? date : null;
}

/** Up to `limit` (0..1000) consecutive slots from `fromIndex`, stopping at the end condition. */
export function occurrences(schedule: Schedule, fromIndex: number, limit: number): Occurrence[] {
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > 1000)
    throw new RangeError('limit must be 0 to 1000');
  const result: Occurrence[] = [];
  for (let index = fromIndex; result.length < limit; index++) {
    const date = nthOccurrence(schedule, index);
    if (date === null) break;
    result.push({ index, date });
  }
  return result;
}

/**
 * First slot on or after `date`. Resuming a paused schedule with today's date skips every
 * missed slot instead of producing a burst of back-dated invoices. Null when the schedule ended.
 */
export function nextOccurrenceOnOrAfter(
  schedule: Schedule,
  date: IsoDate,
  progress?: ScheduleProgress,
): Occurrence | null {
  const { cadence, startDate } = schedule;
  let index = 0;
  if (cadence.kind === 'weekly') {
    index = Math.max(0, Math.ceil(daysBetween(startDate, date) / (7 * cadence.intervalWeeks)));
  } else {
    const monthsAhead = monthIndexOf(date) - anchorMonth(cadence, startDate);
    index = Math.max(0, Math.ceil(monthsAhead / cadence.intervalMonths));
  }
  let slot = occurrenceDate(cadence, startDate, index);
  // The estimate lands in the right month; a clamped day earlier in that month needs one step.
  while (slot !== null && compareDates(slot, date) < 0) {
    index += 1;
    slot = occurrenceDate(cadence, startDate, index);
  }
  if (slot === null) return null;
  const occurrence = { index, date: slot };
  return withinEnd(schedule.end, occurrence, progress) ? occurrence : null;
}
