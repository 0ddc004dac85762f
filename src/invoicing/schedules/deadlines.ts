import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invoiceDeadlineSoon } from '../../mail/templates/index.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { addDays, compareDates, localDateIn } from '../calendar.ts';
import { loadInvoice, loadOrganization, loadParty } from '../invoices/index.ts';
import { formatMoneyForDisplay, parseCurrency } from '../money.ts';
import { isOverdue } from '../status.ts';
import type { InvoicingRuntime } from './work.ts';
import { eachItem } from './work.ts';

export const DEADLINES_JOB = 'invoices.deadlines';

/**
 * Invoices under a live (active or paused) payment plan are reminded per installment instead
 * (src/invoicing/schedules/plan-reminders.ts); a paused plan silences both.
 */
export function noLivePlan(eb: ExpressionBuilder<Database & { v: Database['invoices'] }, 'v'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('invoice_schedules as p')
        .select('p.id')
        .whereRef('p.invoice_id', '=', 'v.id')
        .where('p.kind', '=', 'payment_plan')
        .where('p.status', 'in', ['active', 'paused']),
    ),
  );
}

/**
 * "Deadline coming up" and overdue for invoices, in each organization's time zone:
 * - invoice.due_soon (+ an email to the party) once, when a sent invoice with a balance is due
 *   within ACCOUNTING_DUE_SOON_DAYS (today included);
 * - invoice.overdue once, the first day after its due date with a balance left.
 * Overdue stays derived (docs/invoicing.md); `overdue_at` and `due_soon_notified_at` on the
 * invoice only record that the event went out (a compare-and-set from null makes it once).
 */
export async function remindInvoiceDeadlines(services: InvoicingRuntime, limit = 50): Promise<number> {
  const now = services.clock.now();
  const { db } = services;
  const zones = await db.kysely.selectFrom('organizations').select('time_zone').distinct().execute();
  let handled = 0;
  for (const { time_zone: zone } of zones) {
    const today = localDateIn(zone, now);
    const base = db.kysely
      .selectFrom('invoices as v')
      .innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select(['v.id', 'v.organization_id'])
      .where('o.time_zone', '=', zone)
      .where('v.status', '=', 'sent')
      .where('v.balance_minor', '>', 0)
      .where(noLivePlan)
      .orderBy('v.due_date')
      .limit(limit);
    const soon = await base
      .where('v.due_soon_notified_at', 'is', null)
      .where('v.due_date', '>=', today)
      .where('v.due_date', '<=', addDays(today, services.config.schedules.dueSoonDays))
      .execute();
    for (const row of soon) {
      handled += await eachItem(
        services,
        DEADLINES_JOB,
        { organizationId: row.organization_id, id: row.id },
        (unit) => invoiceDueSoon(unit, row.id, today),
      );
    }
    const overdue = await base.where('v.overdue_at', 'is', null).where('v.due_date', '<', today).execute();
    for (const row of overdue) {
      handled += await eachItem(
        services,
        DEADLINES_JOB,
        { organizationId: row.organization_id, id: row.id },
        (unit) => invoiceOverdue(unit, row.id, today),
      );
    }
  }
  return handled;
}

function deadlineData(invoice: NonNullable<Awaited<ReturnType<typeof loadInvoice>>>) {
  return {
    number: invoice.number,
    partyId: invoice.partyId,
    currency: invoice.currency,
    totalMinor: invoice.totalMinor.toString(),
    balanceMinor: invoice.balanceMinor.toString(),
    dueDate: invoice.dueDate,
  };
}

/** Sets a marker column from null to now; false when another worker (or an earlier run) did. */
async function markOnce(unit: UnitOfWork, id: string, column: 'due_soon_notified_at' | 'overdue_at') {
  const result = await unit.db
    .updateTable('invoices')
    .set({ [column]: unit.clock.now().toISOString() })
    .where('id', '=', id)
    .where('organization_id', '=', unit.organizationId)
    .where(column, 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

async function invoiceDueSoon(unit: UnitOfWork, id: string, today: string): Promise<number> {
  const invoice = await loadInvoice(unit.db, unit.organizationId, id);
  if (invoice?.status !== 'sent' || invoice.balanceMinor === 0n) return 0;
  if (compareDates(invoice.dueDate, today) < 0) return 0;
  if (!(await markOnce(unit, id, 'due_soon_notified_at'))) return 0;
  await unit.emit({
    type: 'invoice.due_soon',
    subject: { type: 'invoice', id },
    data: deadlineData(invoice),
  });
  const party = await loadParty(unit.db, unit.organizationId, invoice.partyId);
  if (party?.email && invoice.number !== null) {
    const organization = await loadOrganization(unit.db, unit.organizationId);
    const mail = invoiceDeadlineSoon({
      organizationName: organization.name,
      partyName: party.name,
      number: invoice.number,
      balanceFormatted: formatMoneyForDisplay(parseCurrency(invoice.currency), invoice.balanceMinor),
      dueDate: invoice.dueDate,
    });
    await unit.sendMail({ to: [party.email], ...mail });
  }
  return 1;
}

async function invoiceOverdue(unit: UnitOfWork, id: string, today: string): Promise<number> {
  const invoice = await loadInvoice(unit.db, unit.organizationId, id);
  if (!invoice || !isOverdue(invoice, today)) return 0;
  if (!(await markOnce(unit, id, 'overdue_at'))) return 0;
  await unit.emit({ type: 'invoice.overdue', subject: { type: 'invoice', id }, data: deadlineData(invoice) });
  return 1;
}
