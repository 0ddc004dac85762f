import type { PayCadence } from '../db/tables/contractors.ts';
import { addDays, dateInMonth, type IsoDate, monthIndexOf, parseIsoDate } from '../invoicing/calendar.ts';

/**
 * The pay period a payout ending on `periodEnd` covers, by the role's cadence: weekly the 7 days
 * and biweekly the 14 days ending that day; semimonthly the 1st-15th or the 16th-end of month
 * half holding it; monthly the calendar month up to it.
 */
export function periodStart(cadence: PayCadence, periodEnd: IsoDate): IsoDate {
  switch (cadence) {
    case 'weekly':
      return addDays(periodEnd, -6);
    case 'biweekly':
      return addDays(periodEnd, -13);
    case 'semimonthly':
      return dateInMonth(monthIndexOf(periodEnd), parseIsoDate(periodEnd).day <= 15 ? 1 : 16);
    case 'monthly':
      return dateInMonth(monthIndexOf(periodEnd), 1);
  }
}
