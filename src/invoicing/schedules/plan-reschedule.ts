import { AppError } from '../../contract/errors.ts';
import { asMinor, dbJson } from '../../db/values.ts';
import { loadForChange } from '../../unit/revision.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { MAX_INSTALLMENTS, MIN_INSTALLMENTS } from '../installments.ts';
import { invalidState, recordChange } from './lifecycle.ts';
import { markReachedInstallments } from './plan-context.ts';
import { buildInstallments, type InstallmentsInput, planCadence } from './plan-input.ts';
import { insertInstallments } from './plans.ts';
import type { InstallmentRow, ScheduleRow } from './records.ts';
import { requireSchedule, scheduleToday, updateSchedule } from './repository.ts';

export interface RescheduleInput extends InstallmentsInput {
  id: string;
  expectedRevision: number;
}

/**
 * Replaces what is still unpaid of an active or paused plan. Installments already paid (`paid_at`,
 * or reached by the invoice's amount paid) are kept as they are; the others are deleted, and the
 * new ones, numbered after the kept ones, split the invoice total minus the last kept threshold
 * (what was paid before the plan when none is kept). A payment that went part of the way into the
 * next installment therefore counts toward the first new one. New installments have new ids, so
 * their due-soon and overdue notices are their own (`invoicing_notices` is keyed by installment).
 */
export async function reschedulePaymentPlan(unit: UnitOfWork, input: RescheduleInput): Promise<ScheduleRow> {
  const row = await loadForChange(
    requireSchedule(unit.db, unit.organizationId, input.id),
    input.expectedRevision,
  );
  if (row.kind !== 'payment_plan' || row.invoice_id === null) {
    throw new AppError(
      'invalid_input',
      'Only payment plans can be rescheduled; change a recurring schedule with invoices.schedules.update.',
      { field: 'id' },
    );
  }
  if (row.status !== 'active' && row.status !== 'paused') throw invalidState(row, 'rescheduled');
  const invoice = await lockInvoice(unit, row.invoice_id);
  const amountPaid = asMinor(invoice.amount_paid_minor);
  if (invoice.status !== 'sent' || asMinor(invoice.balance_minor) === 0n) {
    // Paid or voided: the plans job completes or cancels the plan; nothing is left to spread out.
    throw new AppError(
      'invalid_state',
      `The plan's invoice is ${invoice.status}: nothing is left to reschedule.`,
      {
        details: { state: invoice.status },
      },
    );
  }
  const installments = await unit.db
    .selectFrom('payment_plan_installments')
    .selectAll()
    .where('organization_id', '=', unit.organizationId)
    .where('schedule_id', '=', row.id)
    .orderBy('sequence')
    .execute();
  const kept = keptInstallments(installments, amountPaid);
  const firstOpen = installments[kept.length];
  if (firstOpen === undefined) {
    // Cannot happen while payments only add up (the last threshold is the total); refunds would.
    throw new AppError(
      'invalid_state',
      'Every installment of this plan is paid: nothing is left to reschedule.',
      {
        details: { state: 'paid' },
      },
    );
  }
  // Thresholds are cumulative: the first open one's minus its amount is the last kept threshold.
  const keptThreshold = asMinor(firstOpen.paid_threshold_minor) - asMinor(firstOpen.amount_minor);
  const remaining = asMinor(invoice.total_minor) - keptThreshold;
  const now = unit.clock.now();
  const lastKept = kept.at(-1);
  const replacements = buildInstallments(input, remaining, {
    today: scheduleToday(row, now),
    // A plan keeps 2 to 120 installments in all; one new installment is enough after a paid one.
    limits: {
      min: Math.max(1, MIN_INSTALLMENTS - kept.length),
      max: MAX_INSTALLMENTS - kept.length,
    },
    after: lastKept?.due_date,
    amountName: 'the amount left to reschedule',
  });
  const firstNew = replacements[0];
  if (firstNew === undefined) throw new Error('a reschedule makes at least one installment');
  const cadence = planCadence(input, firstNew.dueDate);
  // The compare-and-set comes first: a concurrent change of the plan makes this one a 409.
  const after = await updateSchedule(
    unit.db,
    row,
    {
      cadence: cadence === null ? null : dbJson(cadence),
      start_date: kept[0]?.due_date ?? firstNew.dueDate,
      end_condition: dbJson({ kind: 'after_count', count: kept.length + replacements.length }),
    },
    now,
  );
  const keptSequence = lastKept?.sequence ?? 0;
  await unit.db
    .deleteFrom('payment_plan_installments')
    .where('organization_id', '=', unit.organizationId)
    .where('schedule_id', '=', row.id)
    .where('sequence', '>', keptSequence)
    .execute();
  await insertInstallments(unit, after, replacements, { sequence: keptSequence, threshold: keptThreshold });
  await recordChange(unit, row, after, 'invoice.schedule.rescheduled', {
    installmentCount: kept.length + replacements.length,
    keptCount: kept.length,
    rescheduledMinor: remaining.toString(),
    firstDueDate: firstNew.dueDate,
  });
  // Kept installments payments reached but the worker has not recorded yet, and new ones that a
  // partial payment already covers, are recorded now (paid_at, installment.paid once).
  await markReachedInstallments(unit, row.id);
  return after;
}

/** The paid prefix: up to the last installment with `paid_at` or a threshold the amount paid reached. */
function keptInstallments(installments: readonly InstallmentRow[], amountPaid: bigint): InstallmentRow[] {
  let count = 0;
  installments.forEach((item, index) => {
    if (item.paid_at !== null || amountPaid >= asMinor(item.paid_threshold_minor)) count = index + 1;
  });
  return installments.slice(0, count);
}

/**
 * The plan's invoice, locked on PostgreSQL until commit (SQLite's writer is already exclusive): a
 * payment recorded meanwhile waits, so the paid installments seen here are the ones kept.
 */
async function lockInvoice(unit: UnitOfWork, invoiceId: string) {
  let query = unit.db
    .selectFrom('invoices')
    .select(['status', 'total_minor', 'amount_paid_minor', 'balance_minor'])
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', invoiceId);
  if (unit.dialect === 'postgres') query = query.forUpdate();
  const invoice = await query.executeTakeFirst();
  if (!invoice) throw new Error(`plan's invoice ${invoiceId} is missing`);
  return invoice;
}
