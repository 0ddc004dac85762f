import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { recordChange } from './lifecycle.ts';
import { markInstallmentPaid } from './plan-context.ts';
import { findSchedule, tryUpdateSchedule } from './repository.ts';
import type { InvoicingRuntime } from './work.ts';
import { eachItem } from './work.ts';

export const PLANS_JOB = 'invoices.plans';

/**
 * Bookkeeping that follows payments recorded on invoices: installments reached by the amount paid
 * get `paid_at` and installment.paid once, for active, paused (facts, not reminders) and completed
 * plans, never for cancelled ones (frozen when cancelled); a plan whose invoice is paid completes,
 * one whose invoice was voided is cancelled.
 */
export async function sweepPlans(services: InvoicingRuntime, limit = 100): Promise<number> {
  const { kysely } = services.db;
  let handled = 0;
  // Cancelled plans are frozen (plan-context.ts); paused ones still record payments (a fact).
  const reached = await kysely
    .selectFrom('payment_plan_installments as i')
    .innerJoin('invoices as v', 'v.id', 'i.invoice_id')
    .innerJoin('invoice_schedules as s', 's.id', 'i.schedule_id')
    .select(['i.id', 'i.organization_id'])
    .where('i.paid_at', 'is', null)
    .where('s.status', '!=', 'cancelled')
    .whereRef('v.amount_paid_minor', '>=', 'i.paid_threshold_minor')
    .orderBy('i.due_date')
    .limit(limit)
    .execute();
  for (const row of reached) {
    handled += await eachItem(
      services,
      PLANS_JOB,
      { organizationId: row.organization_id, id: row.id },
      (unit) => markInstallmentPaid(unit, row.id),
    );
  }
  const settled = await kysely
    .selectFrom('invoice_schedules as s')
    .innerJoin('invoices as v', 'v.id', 's.invoice_id')
    .select(['s.id', 's.organization_id'])
    .where('s.kind', '=', 'payment_plan')
    .where('s.status', 'in', ['active', 'paused'])
    .where('v.status', 'in', ['paid', 'void'])
    .limit(limit)
    .execute();
  for (const row of settled) {
    handled += await eachItem(
      services,
      PLANS_JOB,
      { organizationId: row.organization_id, id: row.id },
      (unit) => settlePlan(unit, row.id),
    );
  }
  return handled;
}

async function settlePlan(unit: UnitOfWork, id: string): Promise<number> {
  const plan = await findSchedule(unit.db, unit.organizationId, id);
  if (!plan || plan.invoice_id === null || (plan.status !== 'active' && plan.status !== 'paused')) return 0;
  const invoice = await unit.db
    .selectFrom('invoices')
    .select('status')
    .where('id', '=', plan.invoice_id)
    .where('organization_id', '=', unit.organizationId)
    .executeTakeFirst();
  if (!invoice || (invoice.status !== 'paid' && invoice.status !== 'void')) return 0;
  const now = unit.clock.now();
  const paid = invoice.status === 'paid';
  const after = await tryUpdateSchedule(
    unit.db,
    plan,
    paid
      ? { status: 'completed', completed_at: now.toISOString(), next_run_date: null }
      : { status: 'cancelled', cancelled_at: now.toISOString(), next_run_date: null },
    now,
  );
  if (!after) return 0;
  await recordChange(unit, plan, after, paid ? 'invoice.schedule.completed' : 'invoice.schedule.cancelled');
  return 1;
}
