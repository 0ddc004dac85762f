import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { addDays, compareDates, localDateIn } from '../calendar.ts';
import { loadOrganization, loadParty } from '../invoices/index.ts';
import { claimNotice } from '../invoices/notices.ts';
import { formatMoneyForDisplay, parseCurrency } from '../money.ts';
import { installmentDueSoon } from './mail.ts';
import { installmentData, isPaid, loadContext, stillDue } from './plan-context.ts';
import { PLANS_JOB } from './plan-sweep.ts';
import type { InvoicingRuntime } from './work.ts';
import { eachItem, sweepZones } from './work.ts';

/**
 * Installment deadlines of ACTIVE plans only (paused plans send nothing), in the plan's zone:
 * installment.due_soon (+ an email to the party) once when an unpaid installment is due within
 * ACCOUNTING_DUE_SOON_DAYS; installment.overdue once the day after its due date. An installment
 * that fell due while the plan was paused gets no overdue notice after the resume.
 */
export async function remindInstallments(services: InvoicingRuntime, limit = 50): Promise<number> {
  const dueSoonDays = services.config.schedules.dueSoonDays;
  return sweepZones(services, 'payment_plan', async (zone, today) => {
    let handled = 0;
    const open = (kind: string) =>
      services.db.kysely
        .selectFrom('payment_plan_installments as i')
        .innerJoin('invoice_schedules as s', 's.id', 'i.schedule_id')
        .innerJoin('invoices as v', 'v.id', 'i.invoice_id')
        .select(['i.id', 'i.organization_id'])
        .where('s.kind', '=', 'payment_plan')
        .where('s.status', '=', 'active')
        .where('s.time_zone', '=', zone)
        .where('v.status', '=', 'sent')
        .where('i.paid_at', 'is', null)
        .whereRef('v.amount_paid_minor', '<', 'i.paid_threshold_minor')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('invoicing_notices as n')
                .select('n.id')
                .whereRef('n.target_id', '=', 'i.id')
                .where('n.kind', '=', kind),
            ),
          ),
        )
        .orderBy('i.due_date')
        .limit(limit);
    const soon = await open('installment.due_soon')
      .where('i.due_date', '>=', today)
      .where('i.due_date', '<=', addDays(today, dueSoonDays))
      .execute();
    for (const row of soon) {
      handled += await eachItem(
        services,
        PLANS_JOB,
        { organizationId: row.organization_id, id: row.id },
        (unit) => installmentNotice(unit, row.id, 'installment.due_soon', dueSoonDays),
      );
    }
    const overdue = await open('installment.overdue').where('i.due_date', '<', today).execute();
    for (const row of overdue) {
      handled += await eachItem(
        services,
        PLANS_JOB,
        { organizationId: row.organization_id, id: row.id },
        (unit) => installmentNotice(unit, row.id, 'installment.overdue', dueSoonDays),
      );
    }
    return handled;
  });
}

async function lockInstallment(unit: UnitOfWork, id: string): Promise<boolean> {
  let query = unit.db
    .selectFrom('payment_plan_installments')
    .select('id')
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', id);
  if (unit.dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

async function installmentNotice(
  unit: UnitOfWork,
  id: string,
  kind: 'installment.due_soon' | 'installment.overdue',
  dueSoonDays: number,
): Promise<number> {
  // Held for the rest of this transaction, so a concurrent reschedule that deletes the installment
  // either committed first (nothing to remind) or waits until this notice is done (PostgreSQL;
  // SQLite's writer is exclusive already).
  if (!(await lockInstallment(unit, id))) return 0;
  const context = await loadContext(unit, id);
  if (context?.plan.status !== 'active' || context.invoice.status !== 'sent' || isPaid(context)) return 0;
  const { installment, plan } = context;
  const today = localDateIn(plan.time_zone, unit.clock.now());
  const due = installment.due_date;
  const window = addDays(today, dueSoonDays);
  if (kind === 'installment.due_soon' && (compareDates(due, today) < 0 || compareDates(due, window) > 0))
    return 0;
  if (kind === 'installment.overdue' && compareDates(due, today) >= 0) return 0;
  if (!(await claimNotice(unit, { type: 'installment', id, kind, date: due }))) return 0;
  // It became overdue (the day after `due`) before the last resume: consumed, never announced.
  if (kind === 'installment.overdue' && compareDates(addDays(due, 1), plan.active_since) < 0) return 1;
  await unit.emit({ type: kind, subject: { type: 'installment', id }, data: installmentData(context) });
  if (kind === 'installment.overdue') return 1;
  const now = unit.clock.now().toISOString();
  await unit.db
    .updateTable('payment_plan_installments')
    .set({ reminded_at: now })
    .where('id', '=', id)
    .execute();
  const party = await loadParty(unit.db, unit.organizationId, plan.party_id);
  if (party?.email) {
    const organization = await loadOrganization(unit.db, unit.organizationId);
    const currency = parseCurrency(plan.currency);
    const data = installmentData(context);
    const mail = installmentDueSoon({
      organizationName: organization.name,
      partyName: party.name,
      invoiceNumber: context.invoice.number ?? '',
      sequence: installment.sequence,
      installmentCount: data.installmentCount,
      amountFormatted: formatMoneyForDisplay(currency, stillDue(context)),
      balanceFormatted: formatMoneyForDisplay(currency, context.invoice.balance),
      dueDate: due,
    });
    await unit.sendMail({ to: [party.email], ...mail });
  }
  return 1;
}
