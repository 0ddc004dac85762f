import { AppError, notFound } from '../../contract/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { dbBool, dbJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { localDateIn } from '../calendar.ts';
import type { Installment } from '../installments.ts';
import { loadInvoice, loadOrganization } from '../invoices/index.ts';
import { recordChange } from './lifecycle.ts';
import { buildInstallments, type PaymentPlanInput, planCadence } from './plan-input.ts';
import type { ScheduleRow } from './records.ts';
import { checkTimeZone } from './recurring.ts';

/**
 * Splits a sent invoice's balance into installments. Each installment n is paid once the invoice's
 * amount paid reaches (paid before the plan + installments 1..n): payments are recorded on the
 * invoice as usual and need no link to an installment; the last one makes the invoice paid.
 */
export async function createPaymentPlan(unit: UnitOfWork, input: PaymentPlanInput): Promise<ScheduleRow> {
  const invoice = await loadInvoice(unit.db, unit.organizationId, input.invoiceId);
  if (!invoice) throw notFound('Invoice', 'invoiceId');
  if (invoice.status !== 'sent' || invoice.balanceMinor === 0n) {
    throw new AppError(
      'invalid_state',
      'Only a sent invoice with a balance can be split into installments.',
      {
        field: 'invoiceId',
        details: { state: invoice.status },
      },
    );
  }
  const existing = await unit.db
    .selectFrom('invoice_schedules')
    .select('id')
    .where('organization_id', '=', unit.organizationId)
    .where('invoice_id', '=', invoice.id)
    .where('kind', '=', 'payment_plan')
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
  if (existing) throw planExists(existing.id);
  const timeZone = checkTimeZone(
    input.timeZone ?? (await loadOrganization(unit.db, unit.organizationId)).timeZone,
  );
  const now = unit.clock.now();
  const today = localDateIn(timeZone, now);
  const installments = buildInstallments(input, invoice.balanceMinor, { today });
  const first = installments[0];
  if (first === undefined) throw new Error('a plan has at least two installments');
  const cadence = planCadence(input, first.dueDate);
  const row = {
    id: newId(),
    organization_id: unit.organizationId,
    kind: 'payment_plan',
    status: 'active',
    name: input.name ?? `Payment plan for invoice ${invoice.number ?? invoice.id}`,
    party_id: invoice.partyId,
    currency: invoice.currency,
    template: null,
    cadence: cadence === null ? null : dbJson(cadence),
    start_date: first.dueDate,
    end_condition: dbJson({ kind: 'after_count', count: installments.length }),
    auto_send: dbBool(false),
    invoice_id: invoice.id,
    time_zone: timeZone,
    next_run_date: null,
    last_run_date: null,
    occurrences_created: 0,
    active_since: today,
    paused_at: null,
    cancelled_at: null,
    completed_at: null,
    revision: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  try {
    await unit.db.insertInto('invoice_schedules').values(row).execute();
  } catch (error) {
    // Two requests racing past the check above: the partial unique index decides.
    if (isUniqueViolation(error)) throw planExists(null);
    throw error;
  }
  await insertInstallments(unit, row, installments, { sequence: 0, threshold: invoice.amountPaidMinor });
  await recordChange(unit, null, row, 'invoice.schedule.created');
  return row;
}

/**
 * Stores `installments` after position `from.sequence`, installment n's threshold being
 * `from.threshold` plus the amounts up to n: at creation, what was paid before the plan; on a
 * reschedule, the threshold of the last installment kept.
 */
export async function insertInstallments(
  unit: UnitOfWork,
  plan: Pick<ScheduleRow, 'id' | 'invoice_id'>,
  installments: readonly Installment[],
  from: { sequence: number; threshold: bigint },
): Promise<void> {
  if (plan.invoice_id === null) throw new Error(`schedule ${plan.id} is not a payment plan`);
  const invoiceId = plan.invoice_id;
  const createdAt = unit.clock.now().toISOString();
  let threshold = from.threshold;
  await unit.db
    .insertInto('payment_plan_installments')
    .values(
      installments.map((item, index) => {
        threshold += item.amountMinor;
        return {
          id: newId(),
          organization_id: unit.organizationId,
          schedule_id: plan.id,
          invoice_id: invoiceId,
          sequence: from.sequence + index + 1,
          due_date: item.dueDate,
          amount_minor: item.amountMinor.toString(),
          paid_threshold_minor: threshold.toString(),
          reminded_at: null,
          paid_at: null,
          created_at: createdAt,
        };
      }),
    )
    .execute();
}

function planExists(planId: string | null): AppError {
  return new AppError('payment_plan_exists', 'The invoice already has an active or paused payment plan.', {
    field: 'invoiceId',
    ...(planId === null ? {} : { details: { plan_id: planId } }),
  });
}
