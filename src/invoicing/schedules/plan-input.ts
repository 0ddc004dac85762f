import { AppError } from '../../contract/errors.ts';
import { compareDates, type IsoDate, parseIsoDate } from '../calendar.ts';
import {
  type Installment,
  MAX_INSTALLMENTS,
  MIN_INSTALLMENTS,
  splitEqual,
  validateCustom,
} from '../installments.ts';
import { domain } from '../service/errors.ts';

export interface PaymentPlanInput {
  invoiceId: string;
  name?: string | undefined;
  equal?:
    | {
        count: number;
        firstDueDate: IsoDate;
        interval: { kind: 'weekly' | 'monthly'; every?: number | undefined };
      }
    | undefined;
  custom?: { dueDate: IsoDate; amountMinor: string }[] | undefined;
  timeZone?: string | undefined;
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_input', message, { field });
}

function notBeforeToday(date: IsoDate, today: IsoDate, field: string): void {
  domain(() => parseIsoDate(date, field));
  if (compareDates(date, today) < 0) throw invalid(field, `${field} must not be before today (${today}).`);
}

/** The installments of the request, summing exactly to `balance` (or a 400 naming the field). */
export function buildInstallments(input: PaymentPlanInput, balance: bigint, today: IsoDate): Installment[] {
  if ((input.equal === undefined) === (input.custom === undefined)) {
    throw invalid('equal', 'Give exactly one of equal and custom.');
  }
  if (input.equal !== undefined) {
    const { count, firstDueDate, interval } = input.equal;
    notBeforeToday(firstDueDate, today, 'equal.firstDueDate');
    const every = interval.every ?? 1;
    return domain(
      () =>
        splitEqual(
          balance,
          count,
          firstDueDate,
          interval.kind === 'weekly'
            ? { kind: 'weekly', intervalWeeks: every }
            : { kind: 'monthly', intervalMonths: every },
        ),
      'equal',
    );
  }
  const items = (input.custom ?? []).map((item) => ({
    dueDate: item.dueDate,
    amountMinor: BigInt(item.amountMinor),
  }));
  const first = items[0];
  if (first !== undefined) notBeforeToday(first.dueDate, today, 'custom.0.dueDate');
  const result = validateCustom(balance, items);
  if (result.ok) return result.installments;
  const sum = items.reduce((total, item) => total + item.amountMinor, 0n);
  if (
    result.error.field === 'items' &&
    sum !== balance &&
    items.length >= MIN_INSTALLMENTS &&
    items.length <= MAX_INSTALLMENTS
  ) {
    throw new AppError(
      'installments_sum_mismatch',
      `The installments sum to ${sum}; the balance is ${balance}.`,
      {
        field: 'custom',
        details: { balance_minor: balance.toString(), sum_minor: sum.toString() },
      },
    );
  }
  // Domain paths (`items[2].dueDate`) in the caller's spelling (`custom.2.dueDate`).
  const field = (result.error.field ?? 'items').replace(/^items/, 'custom').replace(/\[(\d+)\]/g, '.$1');
  throw new AppError('invalid_input', result.error.message, { field });
}
