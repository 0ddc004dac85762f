import { AppError } from '../../contract/errors.ts';
import { compareDates, type IsoDate, parseIsoDate } from '../calendar.ts';
import {
  type Installment,
  type InstallmentLimits,
  PLAN_LIMITS,
  splitEqual,
  validateCustom,
} from '../installments.ts';
import { domain } from '../invoices/errors.ts';
import type { StoredCadence } from './wire.ts';

/** How installments are asked for, at creation and on a reschedule: exactly one of the two. */
export interface InstallmentsInput {
  equal?:
    | {
        count: number;
        firstDueDate: IsoDate;
        interval: { kind: 'weekly' | 'monthly'; every?: number | undefined };
      }
    | undefined;
  custom?: { dueDate: IsoDate; amountMinor: string }[] | undefined;
}

export interface PaymentPlanInput extends InstallmentsInput {
  invoiceId: string;
  name?: string | undefined;
  timeZone?: string | undefined;
}

/** What a split may be: how many installments, and the earliest first due date. */
export interface SplitRules {
  /** The plan's today: the first due date may not be before it. */
  today: IsoDate;
  limits?: InstallmentLimits;
  /** Reschedule: the due date of the last installment kept; the first new one must be later. */
  after?: IsoDate | undefined;
  /** What `balance` is called in the sum-mismatch message (default "the balance"). */
  amountName?: string;
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_input', message, { field });
}

function checkFirstDueDate(date: IsoDate, rules: SplitRules, field: string): void {
  domain(() => parseIsoDate(date, field));
  if (compareDates(date, rules.today) < 0) {
    throw invalid(field, `${field} must not be before today (${rules.today}).`);
  }
  if (rules.after !== undefined && compareDates(date, rules.after) <= 0) {
    throw invalid(
      field,
      `${field} must be after the due date of the last paid installment (${rules.after}).`,
    );
  }
}

/** The installments of the request, summing exactly to `balance` (or a 400 naming the field). */
export function buildInstallments(
  input: InstallmentsInput,
  balance: bigint,
  rules: SplitRules,
): Installment[] {
  const limits = rules.limits ?? PLAN_LIMITS;
  if ((input.equal === undefined) === (input.custom === undefined)) {
    throw invalid('equal', 'Give exactly one of equal and custom.');
  }
  if (input.equal !== undefined) {
    const { count, firstDueDate, interval } = input.equal;
    checkFirstDueDate(firstDueDate, rules, 'equal.firstDueDate');
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
          limits,
        ),
      'equal',
    );
  }
  const items = (input.custom ?? []).map((item) => ({
    dueDate: item.dueDate,
    amountMinor: BigInt(item.amountMinor),
  }));
  const first = items[0];
  if (first !== undefined) checkFirstDueDate(first.dueDate, rules, 'custom.0.dueDate');
  const result = validateCustom(balance, items, limits);
  if (result.ok) return result.installments;
  const sum = items.reduce((total, item) => total + item.amountMinor, 0n);
  if (
    result.error.field === 'items' &&
    sum !== balance &&
    items.length >= limits.min &&
    items.length <= limits.max
  ) {
    throw new AppError(
      'installments_sum_mismatch',
      `The installments sum to ${sum}; ${rules.amountName ?? 'the balance'} is ${balance}.`,
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

/** The spacing stored on the plan: that of an equal split (from its first due date), none for custom. */
export function planCadence(input: InstallmentsInput, firstDueDate: IsoDate): StoredCadence | null {
  if (input.equal === undefined) return null;
  const every = input.equal.interval.every ?? 1;
  return input.equal.interval.kind === 'weekly'
    ? { kind: 'weekly', intervalWeeks: every, dayOfMonth: null, intervalMonths: null }
    : {
        kind: 'monthly',
        intervalWeeks: null,
        dayOfMonth: parseIsoDate(firstDueDate).day,
        intervalMonths: every,
      };
}
