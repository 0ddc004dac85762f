import { asJson, asMinor } from '../../db/values.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import type { ScheduleEnd } from '../cadence.ts';
import type { InstallmentRow, ScheduleRow } from './records.ts';
import { findSchedule } from './repository.ts';

/** An installment with its plan and the invoice facts the plan jobs decide on. */
export interface PlanContext {
  installment: InstallmentRow;
  plan: ScheduleRow;
  invoice: { number: string | null; status: string; amountPaid: bigint; balance: bigint };
}

export async function loadContext(unit: UnitOfWork, installmentId: string): Promise<PlanContext | undefined> {
  const installment = await unit.db
    .selectFrom('payment_plan_installments')
    .selectAll()
    .where('id', '=', installmentId)
    .where('organization_id', '=', unit.organizationId)
    .executeTakeFirst();
  if (!installment) return undefined;
  const plan = await findSchedule(unit.db, unit.organizationId, installment.schedule_id);
  const invoice = await unit.db
    .selectFrom('invoices')
    .select(['number', 'status', 'amount_paid_minor', 'balance_minor'])
    .where('id', '=', installment.invoice_id)
    .where('organization_id', '=', unit.organizationId)
    .executeTakeFirst();
  if (!plan || !invoice) return undefined;
  return {
    installment,
    plan,
    invoice: {
      number: invoice.number,
      status: invoice.status,
      amountPaid: asMinor(invoice.amount_paid_minor),
      balance: asMinor(invoice.balance_minor),
    },
  };
}

export function installmentData({ installment, plan, invoice }: PlanContext) {
  const end = asJson<ScheduleEnd>(plan.end_condition);
  return {
    scheduleId: plan.id,
    invoiceId: installment.invoice_id,
    invoiceNumber: invoice.number,
    sequence: installment.sequence,
    installmentCount: end.kind === 'after_count' ? end.count : 0,
    partyId: plan.party_id,
    currency: plan.currency,
    amountMinor: asMinor(installment.amount_minor).toString(),
    dueDate: installment.due_date,
  };
}

export const isPaid = (c: PlanContext) => c.invoice.amountPaid >= asMinor(c.installment.paid_threshold_minor);

/** What is left of this installment after partial payments (payments fill installments in order). */
export function stillDue(c: PlanContext): bigint {
  const left = asMinor(c.installment.paid_threshold_minor) - c.invoice.amountPaid;
  const amount = asMinor(c.installment.amount_minor);
  return left < amount ? left : amount;
}

/**
 * Records installment `id` paid (paid_at, installment.paid, once) when the invoice's amount paid
 * reached it and its plan is not cancelled: a cancelled plan is frozen, so a later payment (under
 * a new plan for the same invoice) never marks or announces the old plan's installments.
 */
export async function markInstallmentPaid(unit: UnitOfWork, id: string): Promise<number> {
  const context = await loadContext(unit, id);
  if (!context || context.plan.status === 'cancelled' || !isPaid(context)) return 0;
  const marked = await unit.db
    .updateTable('payment_plan_installments')
    .set({ paid_at: unit.clock.now().toISOString() })
    .where('id', '=', id)
    .where('organization_id', '=', unit.organizationId)
    .where('paid_at', 'is', null)
    .executeTakeFirst();
  if (marked.numUpdatedRows !== 1n) return 0;
  await unit.emit({
    type: 'installment.paid',
    subject: { type: 'installment', id },
    data: installmentData(context),
  });
  return 1;
}

/**
 * Before a plan is cancelled: installments that payments reached while it was live, and that the
 * worker has not recorded yet, are recorded now, so the frozen plan shows them paid.
 */
export async function markReachedInstallments(unit: UnitOfWork, planId: string): Promise<void> {
  const open = await unit.db
    .selectFrom('payment_plan_installments')
    .select('id')
    .where('organization_id', '=', unit.organizationId)
    .where('schedule_id', '=', planId)
    .where('paid_at', 'is', null)
    .orderBy('sequence')
    .execute();
  for (const row of open) await markInstallmentPaid(unit, row.id);
}
