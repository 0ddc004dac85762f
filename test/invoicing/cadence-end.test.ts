import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  everyNWeeks,
  monthlyOnDay,
  nextOccurrenceOnOrAfter,
  nthOccurrence,
  occurrenceDate,
  occurrences,
  type Schedule,
  validateSchedule,
  weekly,
  yearly,
} from '../../src/invoicing/cadence.ts';
import { failure } from './helpers.ts';

const never = { kind: 'never' } as const;
const dates = (schedule: Schedule, limit: number) => occurrences(schedule, 0, limit).map((o) => o.date);

describe('end conditions', () => {
  const cadence = monthlyOnDay(10);
  test('after_count stops after N slots', () => {
    const schedule = { cadence, startDate: '2025-01-01', end: { kind: 'after_count', count: 3 } } as const;
    assert.deepEqual(dates(schedule, 10), ['2025-01-10', '2025-02-10', '2025-03-10']);
    assert.equal(nthOccurrence(schedule, 3), null);
    assert.deepEqual(
      occurrences(schedule, 2, 10).map((o) => o.index),
      [2],
    );
  });

  test('on_date is inclusive', () => {
    const schedule = {
      cadence,
      startDate: '2025-01-01',
      end: { kind: 'on_date', date: '2025-03-10' },
    } as const;
    assert.deepEqual(dates(schedule, 10), ['2025-01-10', '2025-02-10', '2025-03-10']);
    const earlier = { ...schedule, end: { kind: 'on_date', date: '2025-01-09' } } as const;
    assert.deepEqual(dates(earlier, 10), []);
  });

  test('never ends only at the calendar end (year 9999)', () => {
    const schedule = { cadence: yearly(1), startDate: '9997-06-01', end: never };
    assert.deepEqual(dates(schedule, 10), ['9997-06-01', '9998-06-01', '9999-06-01']);
    assert.equal(occurrenceDate(weekly(), '9999-12-30', 1), null);
  });

  test('a resumed schedule skips missed slots instead of back-filling', () => {
    const schedule = { cadence: weekly(), startDate: '2025-01-06', end: never };
    // Paused after the 2025-01-13 invoice, resumed on Saturday 2025-03-01.
    assert.deepEqual(nextOccurrenceOnOrAfter(schedule, '2025-03-01'), { index: 8, date: '2025-03-03' });
    assert.deepEqual(nextOccurrenceOnOrAfter(schedule, '2025-03-03'), { index: 8, date: '2025-03-03' });
    assert.deepEqual(nextOccurrenceOnOrAfter(schedule, '2024-01-01'), { index: 0, date: '2025-01-06' });
  });

  test('after_count counts invoices produced when progress is given, slots otherwise', () => {
    const schedule = { cadence, startDate: '2025-01-01', end: { kind: 'after_count', count: 3 } } as const;
    // Two invoices went out (Jan, Feb), then a pause until June: the third is still owed.
    assert.deepEqual(nextOccurrenceOnOrAfter(schedule, '2025-06-01', { issuedCount: 2 }), {
      index: 5,
      date: '2025-06-10',
    });
    assert.equal(nextOccurrenceOnOrAfter(schedule, '2025-06-01', { issuedCount: 3 }), null);
    assert.equal(nextOccurrenceOnOrAfter(schedule, '2025-06-01'), null);
    const ending = {
      cadence,
      startDate: '2025-01-01',
      end: { kind: 'on_date', date: '2025-05-31' },
    } as const;
    assert.equal(nextOccurrenceOnOrAfter(ending, '2025-06-01', { issuedCount: 0 }), null);
  });
});

describe('validation', () => {
  test('cadence ranges', () => {
    assert.equal(
      failure(() => everyNWeeks(0)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => everyNWeeks(53)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => everyNWeeks(1.5)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => monthlyOnDay(0)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => monthlyOnDay(32)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => monthlyOnDay(1, 13)),
      'invalid_cadence cadence',
    );
    assert.equal(
      failure(() => everyNWeeks(52)),
      'ok',
    );
  });

  test('schedule start and end', () => {
    const base = { cadence: weekly(), startDate: '2025-01-01', end: never };
    assert.equal(
      failure(() => validateSchedule(base)),
      'ok',
    );
    assert.equal(
      failure(() => validateSchedule({ ...base, startDate: '2025-02-30' })),
      'invalid_date startDate',
    );
    assert.equal(
      failure(() => validateSchedule({ ...base, end: { kind: 'on_date', date: '2024-12-31' } })),
      'invalid_schedule_end end.date',
    );
    assert.equal(
      failure(() => validateSchedule({ ...base, end: { kind: 'on_date', date: '2025-01-01' } })),
      'ok',
    );
    assert.equal(
      failure(() => validateSchedule({ ...base, end: { kind: 'after_count', count: 0 } })),
      'invalid_schedule_end end.count',
    );
    assert.equal(
      failure(() => validateSchedule({ ...base, end: { kind: 'after_count', count: 10_001 } })),
      'invalid_schedule_end end.count',
    );
    assert.throws(() => occurrences(base, 0, 1001), RangeError);
    assert.throws(() => nthOccurrence(base, -1), RangeError);
  });
});
