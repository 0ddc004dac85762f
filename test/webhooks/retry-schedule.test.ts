import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  DEFAULT_RETRY_SCHEDULE,
  delayBeforeAttempt,
  formatRetrySchedule,
  MAX_SCHEDULE_ATTEMPTS,
  MAX_SCHEDULE_DELAY_MS,
  maxAttempts,
  parseRetrySchedule,
  timeSinceFirstTry,
} from '../../src/webhooks/retry-schedule.ts';

const S = 1000;
const MIN = 60 * S;

test('the default schedule is the contract table: 8 attempts and their delays', () => {
  assert.equal(maxAttempts(DEFAULT_RETRY_SCHEDULE), 8);
  const contract = [0, 30 * S, 90 * S, 270 * S, 810 * S, 2430 * S, 7320 * S, 21600 * S];
  for (let attempt = 1; attempt <= 8; attempt++) {
    assert.equal(
      delayBeforeAttempt(DEFAULT_RETRY_SCHEDULE, attempt),
      contract[attempt - 1],
      `attempt ${attempt}`,
    );
  }
  assert.equal(delayBeforeAttempt(DEFAULT_RETRY_SCHEDULE, 9), undefined);
  assert.ok(Object.isFrozen(DEFAULT_RETRY_SCHEDULE));
});

test('time since the first try matches the contract column to the minute', () => {
  // The contract rounds to whole minutes: 0, 30 s, 2 min, 6.5 min, 20 min, 1 h 1 min, 3 h 2 min, 9 h 2 min.
  const contractColumn = [0, 30 * S, 2 * MIN, 6.5 * MIN, 20 * MIN, 61 * MIN, 182 * MIN, 542 * MIN];
  const exact = [0, 30, 120, 390, 1200, 3630, 10950, 32550].map((s) => s * S);
  for (let attempt = 1; attempt <= 8; attempt++) {
    const since = timeSinceFirstTry(DEFAULT_RETRY_SCHEDULE, attempt);
    assert.equal(since, exact[attempt - 1], `attempt ${attempt}`);
    const shown = contractColumn[attempt - 1] ?? Number.NaN;
    assert.ok(Math.abs((since ?? Number.NaN) - shown) <= 30 * S, `attempt ${attempt}: ${since} vs ${shown}`);
  }
  assert.equal(timeSinceFirstTry(DEFAULT_RETRY_SCHEDULE, 9), undefined);
});

test('attempt numbers start at 1 and are integers', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => delayBeforeAttempt(DEFAULT_RETRY_SCHEDULE, bad), RangeError);
    assert.throws(() => timeSinceFirstTry(DEFAULT_RETRY_SCHEDULE, bad), RangeError);
  }
});

test('parseRetrySchedule reads the documented syntax', () => {
  assert.deepEqual(parseRetrySchedule('0,30s,90s,270s,2m,1h,500ms'), [
    0,
    30 * S,
    90 * S,
    270 * S,
    2 * MIN,
    3600 * S,
    500,
  ]);
  assert.deepEqual(parseRetrySchedule(' 0 , 1.5m ,\t2s'), [0, 90 * S, 2 * S]);
  assert.deepEqual(parseRetrySchedule('30'), [30 * S]); // a bare number means seconds
  assert.deepEqual(parseRetrySchedule('1.1s,0.5,2.25m'), [1100, 500, 135 * S]);
  assert.deepEqual(parseRetrySchedule(formatRetrySchedule(DEFAULT_RETRY_SCHEDULE)), DEFAULT_RETRY_SCHEDULE);
  assert.equal(formatRetrySchedule(DEFAULT_RETRY_SCHEDULE), '0,30s,90s,270s,810s,2430s,122m,6h');
});

test('parseRetrySchedule throws a clear Error naming the bad item', () => {
  const cases: ReadonlyArray<readonly [string, RegExp]> = [
    ['', /empty/],
    ['   ', /empty/],
    ['0,,30s', /item 2 \(""\)/],
    ['0,30s,', /item 3/],
    ['30x', /item 1 \("30x"\) is not a duration/],
    ['-5s', /not a duration/],
    ['1e3', /not a duration/],
    ['5 s', /not a duration/],
    ['10S', /not a duration/],
    ['1d', /not a duration/],
    ['0.0001s', /whole number of milliseconds/],
    ['0.5ms', /whole number of milliseconds/],
    ['169h', /longer than 7 days/],
    [Array.from({ length: MAX_SCHEDULE_ATTEMPTS + 1 }, () => '1s').join(','), /at most 50/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseRetrySchedule(text),
      (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, message);
        assert.match(error.message, /ACCOUNTING_WEBHOOK_RETRY_SCHEDULE/);
        return true;
      },
    );
  }
  assert.deepEqual(parseRetrySchedule('168h'), [MAX_SCHEDULE_DELAY_MS]);
});

const scheduleArb = fc.array(fc.integer({ min: 0, max: MAX_SCHEDULE_DELAY_MS }), {
  minLength: 1,
  maxLength: MAX_SCHEDULE_ATTEMPTS,
});

test('property: formatting then parsing gives the same schedule back', () => {
  fc.assert(
    fc.property(scheduleArb, (schedule) => {
      assert.deepEqual(parseRetrySchedule(formatRetrySchedule(schedule)), schedule);
    }),
  );
});

test('property: parsed delays are non-negative integer milliseconds, and sums add up', () => {
  const unitArb = fc.constantFrom('', 'ms', 's', 'm', 'h');
  const itemArb = fc.tuple(fc.integer({ min: 0, max: 168 }), unitArb).map(([n, unit]) => `${n}${unit}`);
  fc.assert(
    fc.property(fc.array(itemArb, { minLength: 1, maxLength: 20 }), (items) => {
      const schedule = parseRetrySchedule(items.join(','));
      assert.equal(maxAttempts(schedule), items.length);
      for (const ms of schedule)
        assert.ok(Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_SCHEDULE_DELAY_MS);
      let since = 0;
      for (let attempt = 1; attempt <= schedule.length; attempt++) {
        if (attempt > 1) since += delayBeforeAttempt(schedule, attempt) ?? Number.NaN;
        assert.equal(timeSinceFirstTry(schedule, attempt), since);
      }
    }),
  );
});
