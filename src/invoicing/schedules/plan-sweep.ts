import type { UnitOfWork } from '../../jobs/system-context.ts';
import type { Services } from '../../services.ts';
import { recordChange } from './lifecycle.ts';
import { installmentData, isPaid, loadContext } from './plan-context.ts';
import { findSchedule, tryUpdateSchedule } from './repository.ts';
import { eachItem } from './work.ts';

export const PLANS_JOB = 'invoices.plans';

/**
 * Bookkeeping that follows payments recorded on invoices (whatever the plan's state, since these
 * are facts, not reminders): installments reached by the amount paid get `paid_at` and
 * installment.paid once; a plan whose invoice is paid completes, one whose invoice was voided
 * is cancelled.
 */
export async function sweepPlans(services: Services, limit = 100): Promise<number> {
  const { kysely } = services.db;
  let handled = 0;
  const reached = await kysely
    .selectFrom('payment_plan_installments as i')
    .innerJoin('invoices as v', 'v.id', 'i.invoice_id')
    .select(['i.id', 'i.organization_id'])
    .where('i.paid_at', 'is', null)
    .whereRef('v.amount_paid_minor', '>=', 'i.paid_threshold_minor')
    .orderBy('i.due_date')
    .limit(limit)
    .execute();
  for (const row of reached) {
    handled += await eachItem(
      services,
      PLANS_JOB,
      { organizationId: row.organization_id, id: row.id },
      async (unit) => {
        const context = await loadContext(unit, row.id);
        if (!context || !isPaid(context)) return 0;
        const marked = await unit.db
          .updateTable('payment_plan_installments')
          .set({ paid_at: unit.clock.now().toISOString() })
          .where('id', '=', row.id)
          .where('paid_at', 'is', null)
          .executeTakeFirst();
        if (marked.numUpdatedRows !== 1n) return 0;
        await unit.emit({
          type: 'installment.paid',
          subject: { type: 'installment', id: row.id },
          data: installmentData(context),
        });
        return 1;
      },
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
