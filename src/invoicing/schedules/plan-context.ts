import { asJson, asMinor } from '../../db/values.ts';
import type { UnitOfWork } from '../../jobs/system-context.ts';
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
