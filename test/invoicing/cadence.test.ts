import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type Cadence,
  everyNWeeks,
  monthlyOnDay,
  monthlyOnLastDay,
  nextOccurrenceOnOrAfter,
  nthOccurrence,
  occurrenceDate,
  occurrences,
  quarterly,
  type Schedule,
  weekly,
  yearly,
} from '../../src/invoicing/cadence.ts';
import { addDays, daysBetween, daysInMonth, parseIsoDate } from '../../src/invoicing/calendar.ts';
import { dateBetween } from './helpers.ts';

const never = { kind: 'never' } as const;
const dates = (schedule: Schedule, limit: number) => occurrences(schedule, 0, limit).map((o) => o.date);
const dateArb = dateBetween('1990-01-01', '2090-12-31');
const cadenceArb: fc.Arbitrary<Cadence> = fc.oneof(
  fc.integer({ min: 1, max: 52 }).map(everyNWeeks),
  fc
    .tuple(
      fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constant('last' as const)),
      fc.integer({ min: 1, max: 12 }),
    )
    .map(([day, interval]) => ({ kind: 'monthly', dayOfMonth: day, intervalMonths: interval }) as const),
);

describe('month ends and leap years', () => {
  test('day 31 clamps in short months and comes back (no drift to the 29th)', () => {
    assert.deepEqual(dates({ cadence: monthlyOnDay(31), startDate: '2024-01-31', end: never }, 5), [
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
    ]);
  });

  test('the nth occurrence never drifts over 10 years of months from the 29th, 30th, 31st', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(29, 30, 31),
        fc.integer({ min: 1, max: 12 }),
        dateArb,
        (day, interval, start) => {
          const schedule = { cadence: monthlyOnDay(day, interval), startDate: start, end: never };
          const list = occurrences(schedule, 0, Math.ceil(120 / interval));
          let previousMonth: number | null = null;
          for (const { index, date } of list) {
            const { year, month, day: got } = parseIsoDate(date);
            assert.equal(got, Math.min(day, daysInMonth(year, month)), date);
            if (previousMonth !== null) assert.equal(year * 12 + month - previousMonth, interval);
            previousMonth = year * 12 + month;
            assert.equal(nthOccurrence(schedule, index), date);
          }
        },
      ),
    );
  });

  test("'last' is always the month's last day", () => {
    assert.deepEqual(dates({ cadence: monthlyOnLastDay(), startDate: '2023-12-05', end: never }, 4), [
      '2023-12-31',
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
    ]);
  });

  test('yearly from Feb 29 falls on Feb 28 in common years and Feb 29 in leap years', () => {
    assert.deepEqual(dates({ cadence: yearly(29), startDate: '2024-02-29', end: never }, 5), [
      '2024-02-29',
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
    assert.deepEqual(dates({ cadence: yearly(29), startDate: '2096-02-29', end: never }, 5), [
      '2096-02-29',
      '2097-02-28',
      '2098-02-28',
      '2099-02-28',
      '2100-02-28',
    ]);
  });

  test('quarterly on the 31st', () => {
    assert.deepEqual(dates({ cadence: quarterly(31), startDate: '2025-01-31', end: never }, 5), [
      '2025-01-31',
      '2025-04-30',
      '2025-07-31',
      '2025-10-31',
      '2026-01-31',
    ]);
  });

  test('the first occurrence is the first matching date on or after the start', () => {
    assert.equal(
      nthOccurrence({ cadence: monthlyOnDay(15), startDate: '2025-01-15', end: never }, 0),
      '2025-01-15',
    );
    assert.equal(
      nthOccurrence({ cadence: monthlyOnDay(15), startDate: '2025-01-20', end: never }, 0),
      '2025-02-15',
    );
    assert.equal(
      nthOccurrence({ cadence: monthlyOnDay(31), startDate: '2025-02-28', end: never }, 0),
      '2025-02-28',
    );
  });
});

describe('weekly', () => {
  test('every N weeks keeps the weekday and spacing', () => {
    assert.deepEqual(dates({ cadence: weekly(), startDate: '2024-12-30', end: never }, 3), [
      '2024-12-30',
      '2025-01-06',
      '2025-01-13',
    ]);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 52 }),
        dateArb,
        fc.integer({ min: 0, max: 500 }),
        (n, start, i) => {
          const date = occurrenceDate(everyNWeeks(n), start, i);
          assert.equal(date, addDays(start, 7 * n * i));
        },
      ),
    );
  });
});

describe('any cadence', () => {
  test('occurrences are strictly increasing and match nthOccurrence', () => {
    fc.assert(
      fc.property(cadenceArb, dateArb, fc.integer({ min: 0, max: 50 }), (cadence, start, from) => {
        const schedule = { cadence, startDate: start, end: never };
        const list = occurrences(schedule, from, 30);
        assert.equal(list.length, 30);
        list.forEach((o, i) => {
          assert.equal(o.index, from + i);
          assert.equal(nthOccurrence(schedule, o.index), o.date);
          assert.ok(daysBetween(start, o.date) >= 0);
          const next = list[i + 1];
          if (next !== undefined) assert.ok(daysBetween(o.date, next.date) > 0);
        });
      }),
    );
  });

  test('nextOccurrenceOnOrAfter is the earliest slot on or after the date', () => {
    fc.assert(
      fc.property(cadenceArb, dateArb, fc.integer({ min: -40, max: 2000 }), (cadence, start, offset) => {
        const schedule = { cadence, startDate: start, end: never };
        const date = addDays(start, offset);
        const found = nextOccurrenceOnOrAfter(schedule, date);
        assert.notEqual(found, null);
        if (found === null) return;
        assert.equal(nthOccurrence(schedule, found.index), found.date);
        assert.ok(daysBetween(date, found.date) >= 0);
        if (found.index > 0) {
          const before = nthOccurrence(schedule, found.index - 1);
          assert.ok(before !== null && daysBetween(date, before) < 0);
        }
      }),
    );
  });
});
