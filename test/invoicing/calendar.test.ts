import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  addDays,
  addMonths,
  compareDates,
  dayOfWeek,
  daysBetween,
  daysInMonth,
  fromEpochDay,
  isIsoDate,
  isLeapYear,
  isValidTimeZone,
  lastDayOfMonth,
  localDateIn,
  parseIsoDate,
  toEpochDay,
} from '../../src/invoicing/calendar.ts';
import { InvoicingError } from '../../src/invoicing/errors.ts';

/** Oracle: the platform's proleptic Gregorian UTC calendar (setUTCFullYear avoids the 0-99 -> 19xx quirk). */
function viaDate(epochDay: number): { iso: string; weekday: number } {
  const d = new Date(epochDay * 86_400_000);
  const iso = `${String(d.getUTCFullYear()).padStart(4, '0')}-${d.toISOString().slice(5, 10)}`;
  return { iso, weekday: d.getUTCDay() === 0 ? 7 : d.getUTCDay() };
}
const MIN_DAY = toEpochDay('0001-01-01');
const MAX_DAY = toEpochDay('9999-12-31');
const dayArb = fc.integer({ min: MIN_DAY, max: MAX_DAY });

describe('civil dates', () => {
  test('epoch days agree with the platform calendar over years 0001-9999', () => {
    fc.assert(
      fc.property(dayArb, (day) => {
        const expected = viaDate(day);
        assert.equal(fromEpochDay(day), expected.iso);
        assert.equal(toEpochDay(expected.iso), day);
        assert.equal(dayOfWeek(expected.iso), expected.weekday);
      }),
      { numRuns: 3000 },
    );
    assert.equal(toEpochDay('1970-01-01'), 0);
    assert.equal(fromEpochDay(MIN_DAY), '0001-01-01');
  });

  test('leap years and month lengths', () => {
    assert.deepEqual([1900, 2000, 2023, 2024, 2100, 2400].map(isLeapYear), [
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
    assert.equal(daysInMonth(2024, 2), 29);
    assert.equal(daysInMonth(2023, 2), 28);
    assert.equal(daysInMonth(2023, 4), 30);
    assert.equal(lastDayOfMonth('2024-02-10'), '2024-02-29');
    assert.equal(lastDayOfMonth('2100-02-01'), '2100-02-28');
  });

  test('only real YYYY-MM-DD dates are accepted', () => {
    for (const bad of [
      '2023-02-29',
      '2024-02-30',
      '2024-04-31',
      '0000-01-01',
      '2024-13-01',
      '2024-00-10',
      '2024-1-01',
      '24-01-01',
      '2024-01-01T00:00:00Z',
      ' 2024-01-01',
      '10000-01-01',
      '',
    ]) {
      assert.equal(isIsoDate(bad), false, bad);
      assert.throws(
        () => parseIsoDate(bad, 'dueDate'),
        (e: unknown) => e instanceof InvoicingError && e.field === 'dueDate',
      );
    }
    assert.ok(isIsoDate('2024-02-29'));
    assert.ok(isIsoDate('0001-01-01'));
    assert.ok(isIsoDate('9999-12-31'));
    assert.throws(() => addDays('9999-12-31', 1), InvoicingError);
  });

  test('addMonths clamps to the month end without carrying the clamp along', () => {
    assert.equal(addMonths('2024-01-31', 1), '2024-02-29');
    assert.equal(addMonths('2023-01-31', 1), '2023-02-28');
    assert.equal(addMonths('2024-01-31', 2), '2024-03-31');
    assert.equal(addMonths('2024-03-31', -1), '2024-02-29');
    assert.equal(addMonths('2024-02-29', 12), '2025-02-28');
    assert.equal(addMonths('2024-02-29', 48), '2028-02-29');
    assert.equal(addMonths('2024-12-15', 1), '2025-01-15');
    assert.equal(addMonths('2024-01-15', -13), '2022-12-15');
  });

  test('addMonths keeps the day when it exists, else lands on the last day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: toEpochDay('1900-01-01'), max: toEpochDay('2500-12-31') }),
        fc.integer({ min: -240, max: 240 }),
        (day, months) => {
          const from = fromEpochDay(day);
          const to = addMonths(from, months);
          const a = parseIsoDate(from);
          const b = parseIsoDate(to);
          assert.equal(b.year * 12 + b.month - (a.year * 12 + a.month), months);
          assert.equal(b.day, Math.min(a.day, daysInMonth(b.year, b.month)));
        },
      ),
    );
  });

  test('addDays, daysBetween and compareDates agree', () => {
    fc.assert(
      fc.property(dayArb, dayArb, (x, y) => {
        const a = fromEpochDay(x);
        const b = fromEpochDay(y);
        assert.equal(daysBetween(a, b), y - x);
        assert.equal(addDays(a, y - x), b);
        assert.equal(compareDates(a, b), Math.sign(x - y) || 0);
        assert.equal(compareDates(a, b), a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });
});

describe('localDateIn', () => {
  test('uses the organization time zone, not the host one', () => {
    assert.equal(localDateIn('America/Toronto', Date.parse('2025-01-01T04:59:59Z')), '2024-12-31');
    assert.equal(localDateIn('America/Toronto', Date.parse('2025-01-01T05:00:00Z')), '2025-01-01');
    assert.equal(localDateIn('Pacific/Kiritimati', new Date('2024-12-31T10:00:00Z')), '2025-01-01');
    assert.equal(localDateIn('Pacific/Pago_Pago', new Date('2025-01-01T10:00:00Z')), '2024-12-31');
    assert.equal(localDateIn('Asia/Kolkata', new Date('2024-02-28T18:30:00Z')), '2024-02-29');
    // DST change day in Toronto: 2025-03-09 starts at 05:00Z, ends at 04:00Z the next day (EDT).
    assert.equal(localDateIn('America/Toronto', Date.parse('2025-03-10T03:59:59Z')), '2025-03-09');
    assert.equal(localDateIn('America/Toronto', Date.parse('2025-03-10T04:00:00Z')), '2025-03-10');
  });

  test('defaults to UTC and matches the UTC calendar', () => {
    assert.equal(localDateIn(undefined, Date.parse('2025-06-30T23:59:59.999Z')), '2025-06-30');
    assert.equal(localDateIn(null, Date.parse('2025-07-01T00:00:00Z')), '2025-07-01');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.parse('2200-01-01T00:00:00Z') }), (ms) => {
        assert.equal(localDateIn('UTC', ms), new Date(ms).toISOString().slice(0, 10));
      }),
    );
  });

  test('unknown time zones and invalid instants are errors', () => {
    assert.equal(isValidTimeZone('Europe/Paris'), true);
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
    assert.throws(
      () => localDateIn('Mars/Olympus', 0),
      (e: unknown) => e instanceof InvoicingError && e.code === 'invalid_time_zone',
    );
    assert.throws(
      () => localDateIn('', 0),
      (e: unknown) => e instanceof InvoicingError && e.code === 'invalid_time_zone',
    );
    assert.throws(() => localDateIn('UTC', new Date(Number.NaN)), InvoicingError);
  });
});
