// The webhook retry schedule: element i is the delay, in milliseconds, before attempt i + 1.
// Attempt 1's delay counts from the event; every later delay counts from the previous try.
// Operators may override it with ACCOUNTING_WEBHOOK_RETRY_SCHEDULE (tests use short schedules).

export type RetrySchedule = readonly number[];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The contract's table (Events, item 6): 8 attempts, delays 0, 30 s, 1.5 min, 4.5 min, 13.5 min,
 * 40.5 min, 2 h 2 min, 6 h.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = Object.freeze([
  0,
  30 * SECOND,
  90 * SECOND,
  270 * SECOND,
  810 * SECOND,
  2430 * SECOND,
  7320 * SECOND,
  6 * HOUR,
]);

/** Bounds on an operator-supplied schedule, so a typo cannot schedule a delivery years ahead. */
export const MAX_SCHEDULE_ATTEMPTS = 50;
export const MAX_SCHEDULE_DELAY_MS = 7 * 24 * HOUR;

const UNITS: ReadonlyArray<readonly [suffix: string, ms: number]> = [
  ['h', HOUR],
  ['m', MINUTE],
  ['s', SECOND],
  ['ms', 1],
];

const ITEM = /^(\d{1,12})(?:\.(\d{1,6}))?(ms|s|m|h)?$/;

function parseDelay(item: string, position: number): number {
  const match = ITEM.exec(item);
  const prefix = `ACCOUNTING_WEBHOOK_RETRY_SCHEDULE item ${position} (${JSON.stringify(item)})`;
  if (match === null) {
    throw new Error(
      `${prefix} is not a duration; use a number with ms, s, m or h (a bare number means seconds)`,
    );
  }
  const [, whole = '', fraction = '', suffix = 's'] = match;
  const unitMs = UNITS.find(([name]) => name === suffix)?.[1] ?? SECOND;
  // Integer arithmetic, so that 1.1s is exactly 1100 ms rather than 1100.0000000000002.
  const scaled = BigInt(whole + fraction) * BigInt(unitMs);
  const divisor = 10n ** BigInt(fraction.length);
  if (scaled % divisor !== 0n) throw new Error(`${prefix} is not a whole number of milliseconds`);
  const ms = Number(scaled / divisor);
  if (ms > MAX_SCHEDULE_DELAY_MS) throw new Error(`${prefix} is longer than 7 days`);
  return ms;
}

/**
 * Parses a comma-separated list of durations such as `0,30s,90s,2m,1h,500ms` (spaces around items
 * are ignored; a bare number means seconds). Throws an Error naming the offending item.
 */
export function parseRetrySchedule(text: string): RetrySchedule {
  if (text.trim() === '')
    throw new Error('ACCOUNTING_WEBHOOK_RETRY_SCHEDULE is empty; give at least one delay');
  const items = text.split(',').map((item) => item.trim());
  if (items.length > MAX_SCHEDULE_ATTEMPTS) {
    throw new Error(
      `ACCOUNTING_WEBHOOK_RETRY_SCHEDULE has ${items.length} items; at most ${MAX_SCHEDULE_ATTEMPTS}`,
    );
  }
  return Object.freeze(items.map((item, index) => parseDelay(item, index + 1)));
}

/** Formats a schedule in the syntax parseRetrySchedule reads, using the largest exact unit. */
export function formatRetrySchedule(schedule: RetrySchedule): string {
  return schedule
    .map((ms) => {
      if (ms === 0) return '0';
      const unit = UNITS.find(([, size]) => ms % size === 0);
      return unit === undefined ? `${ms}ms` : `${ms / unit[1]}${unit[0]}`;
    })
    .join(',');
}

/** How many attempts an event gets in all. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.length;
}

function assertAttemptNumber(attemptNumber: number): void {
  if (!Number.isSafeInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be an integer >= 1, got ${attemptNumber}`);
  }
}

/**
 * Milliseconds to wait before attempt `attemptNumber` (1-based), counted from the previous try
 * (from the event for attempt 1). Undefined when the schedule has no such attempt: stop retrying.
 */
export function delayBeforeAttempt(schedule: RetrySchedule, attemptNumber: number): number | undefined {
  assertAttemptNumber(attemptNumber);
  return schedule[attemptNumber - 1];
}

/** Milliseconds from the first try to attempt `attemptNumber`, if every try took no time. */
export function timeSinceFirstTry(schedule: RetrySchedule, attemptNumber: number): number | undefined {
  assertAttemptNumber(attemptNumber);
  if (attemptNumber > schedule.length) return undefined;
  return schedule.slice(1, attemptNumber).reduce((sum, ms) => sum + ms, 0);
}
