import { type Cadence, occurrenceDate, validateCadence } from './cadence.ts';
import { compareDates, type IsoDate, parseIsoDate } from './calendar.ts';
import { InvoicingError } from './errors.ts';
import { assertMinorRange, MAX_MINOR } from './money.ts';

export const MIN_INSTALLMENTS = 2;
export const MAX_INSTALLMENTS = 120;

/** How many installments a split may make (a new plan: 2-120; a reschedule fewer, see plan-reschedule.ts). */
export interface InstallmentLimits {
  readonly min: number;
  readonly max: number;
}

export const PLAN_LIMITS: InstallmentLimits = { min: MIN_INSTALLMENTS, max: MAX_INSTALLMENTS };

export interface Installment {
  /** 1-based position in the plan. */
  readonly sequence: number;
  readonly dueDate: IsoDate;
  readonly amountMinor: bigint;
}

/**
 * Spacing of installments. The day of month always comes from the first due date, so the
 * first installment is due exactly on it and later ones keep that day (clamped in short months).
 */
export type InstallmentInterval =
  | { readonly kind: 'weekly'; readonly intervalWeeks: number }
  | { readonly kind: 'monthly'; readonly intervalMonths: number };

function invalid(detail: string, field: string): InvoicingError {
  return new InvoicingError('invalid_installments', detail, field);
}

/**
 * Splits a balance into `count` amounts that differ by at most one minor unit. The remainder
 * (balance mod count) goes one unit each to the FIRST installments, so the customer pays the
 * odd units early and the last installment is never the larger one: 1000 / 3 -> 334, 333, 333.
 * Every installment must be at least one minor unit, so balance >= count.
 */
export function splitEqual(
  balanceMinor: bigint,
  count: number,
  firstDueDate: IsoDate,
  interval: InstallmentInterval,
  limits: InstallmentLimits = PLAN_LIMITS,
): Installment[] {
  if (!Number.isInteger(count) || count < limits.min || count > limits.max) {
    throw invalid(`count must be ${limits.min} to ${limits.max}`, 'count');
  }
  assertMinorRange(balanceMinor, 'balanceMinor');
  if (balanceMinor < BigInt(count))
    throw invalid('balance is smaller than one minor unit per installment', 'count');
  const { day } = parseIsoDate(firstDueDate, 'firstDueDate');
  const cadence: Cadence = validateCadence(
    interval.kind === 'weekly'
      ? { kind: 'weekly', intervalWeeks: interval.intervalWeeks }
      : { kind: 'monthly', dayOfMonth: day, intervalMonths: interval.intervalMonths },
    'interval',
  );
  const base = balanceMinor / BigInt(count);
  const remainder = Number(balanceMinor % BigInt(count));
  return Array.from({ length: count }, (_, i) => {
    const dueDate = occurrenceDate(cadence, firstDueDate, i);
    if (dueDate === null) throw invalid('installments run past year 9999', 'firstDueDate');
    return { sequence: i + 1, dueDate, amountMinor: i < remainder ? base + 1n : base };
  });
}

export interface CustomInstallmentInput {
  readonly dueDate: IsoDate;
  readonly amountMinor: bigint;
}

export type InstallmentPlanResult =
  | { readonly ok: true; readonly installments: Installment[] }
  | { readonly ok: false; readonly error: InvoicingError };

/**
 * Checks a hand-made plan: 2..120 items (or `limits`), every amount > 0, due dates strictly increasing,
 * and the amounts summing to the balance exactly (no rounding is ever applied to make it fit).
 * Errors name the offending field, e.g. `items[2].dueDate`.
 */
export function validateCustom(
  balanceMinor: bigint,
  items: readonly CustomInstallmentInput[],
  limits: InstallmentLimits = PLAN_LIMITS,
): InstallmentPlanResult {
  try {
    assertMinorRange(balanceMinor, 'balanceMinor');
    if (items.length < limits.min || items.length > limits.max) {
      throw invalid(`plan must have ${limits.min} to ${limits.max} installments`, 'items');
    }
    let sum = 0n;
    let previous: IsoDate | null = null;
    const installments = items.map((item, i): Installment => {
      parseIsoDate(item.dueDate, `items[${i}].dueDate`);
      if (previous !== null && compareDates(item.dueDate, previous) <= 0) {
        throw invalid('due dates must be strictly increasing', `items[${i}].dueDate`);
      }
      if (item.amountMinor <= 0n || item.amountMinor > MAX_MINOR) {
        throw invalid('amount must be greater than zero', `items[${i}].amountMinor`);
      }
      previous = item.dueDate;
      sum += item.amountMinor;
      return { sequence: i + 1, dueDate: item.dueDate, amountMinor: item.amountMinor };
    });
    if (sum !== balanceMinor) {
      throw invalid(`amounts sum to ${sum}, balance is ${balanceMinor}`, 'items');
    }
    return { ok: true, installments };
  } catch (error) {
    if (error instanceof InvoicingError) return { ok: false, error };
    throw error;
  }
}
