import { InvoicingError } from './errors.ts';

/**
 * Civil dates as ISO `YYYY-MM-DD` strings (years 0001-9999), computed with integer day counts
 * (H. Hinnant's days-from-civil). No Date objects, so no local time zone or DST can shift a day.
 */
export type IsoDate = string;

export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const MS_PER_DAY = 86_400_000;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isValidCivil({ year, month, day }: CivilDate): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** Parses `YYYY-MM-DD`; throws `invalid_date` (naming `field`) for malformed or impossible dates. */
export function parseIsoDate(text: string, field?: string): CivilDate {
  const match = ISO_DATE.exec(text);
  const civil =
    match === null ? null : { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (civil === null || !isValidCivil(civil))
    throw new InvoicingError('invalid_date', JSON.stringify(text), field);
  return civil;
}

export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const match = ISO_DATE.exec(value);
  return (
    match !== null && isValidCivil({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) })
  );
}

export function formatIsoDate(civil: CivilDate): IsoDate {
  if (!isValidCivil(civil)) throw new InvoicingError('invalid_date', JSON.stringify(civil));
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(civil.year, 4)}-${pad(civil.month, 2)}-${pad(civil.day, 2)}`;
}

/** Days since 1970-01-01 (negative before). */
export function toEpochDay(date: IsoDate): number {
  const { year, month, day } = parseIsoDate(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Inverse of toEpochDay; throws `invalid_date` outside years 0001-9999. */
export function fromEpochDay(epochDay: number): IsoDate {
  if (!Number.isSafeInteger(epochDay)) throw new InvoicingError('invalid_date', String(epochDay));
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  return formatIsoDate({ year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day });
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(date) + days);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

export function compareDates(a: IsoDate, b: IsoDate): -1 | 0 | 1 {
  const difference = daysBetween(b, a);
  return difference < 0 ? -1 : difference > 0 ? 1 : 0;
}

/** ISO weekday: Monday 1 ... Sunday 7 (1970-01-01 was a Thursday). */
export function dayOfWeek(date: IsoDate): number {
  return ((((toEpochDay(date) + 3) % 7) + 7) % 7) + 1;
}

/** Months since year 0 (year * 12 + month - 1): month arithmetic without carrying days along. */
export function monthIndexOf(date: IsoDate): number {
  const { year, month } = parseIsoDate(date);
  return year * 12 + month - 1;
}

/** The given day in the month `monthIndex`, clamped to the month's last day ('last' = last day). */
export function dateInMonth(monthIndex: number, dayOfMonth: number | 'last'): IsoDate {
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  const last = daysInMonth(year, month);
  return formatIsoDate({ year, month, day: dayOfMonth === 'last' ? last : Math.min(dayOfMonth, last) });
}

/** Adds calendar months keeping the day, clamped at month end: 2024-01-31 + 1 -> 2024-02-29. */
export function addMonths(date: IsoDate, months: number): IsoDate {
  return dateInMonth(monthIndexOf(date) + months, parseIsoDate(date).day);
}

export function lastDayOfMonth(date: IsoDate): IsoDate {
  return dateInMonth(monthIndexOf(date), 'last');
}

export const DEFAULT_TIME_ZONE = 'UTC';
const formatters = new Map<string, Intl.DateTimeFormat>();
const FIRST_MS = toEpochDay('0001-01-02') * MS_PER_DAY;
const LAST_MS = toEpochDay('9999-12-30') * MS_PER_DAY;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
      });
    } catch {
      throw new InvoicingError('invalid_time_zone', JSON.stringify(timeZone), 'timeZone');
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The civil date at `instant` in the organization's IANA time zone (UTC when unset), so a
 * worker decides "what day is it" the way the organization does, not the way the host does.
 */
export function localDateIn(timeZone: string | null | undefined, instant: Date | number): IsoDate {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(ms) || ms < FIRST_MS || ms > LAST_MS)
    throw new InvoicingError('invalid_date', String(ms));
  const parts = formatterFor(timeZone ?? DEFAULT_TIME_ZONE).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return formatIsoDate({ year: part('year'), month: part('month'), day: part('day') });
}
