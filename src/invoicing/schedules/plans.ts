import { AppError, notFound } from '../../contract/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { dbBool, dbJson } from '../../db/values.ts';
import type { UnitOfWork } from '../../jobs/system-context.ts';
import { newId } from '../../lib/ids.ts';
import { localDateIn, parseIsoDate } from '../calendar.ts';
import { loadInvoice, loadOrganization } from '../service/index.ts';
import { recordChange } from './lifecycle.ts';
import { buildInstallments, type PaymentPlanInput } from './plan-input.ts';
import type { ScheduleRow } from './records.ts';
import { checkTimeZone } from './recurring.ts';
import type { StoredCadence } from './wire.ts';

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
  const installments = buildInstallments(input, invoice.balanceMinor, today);
  const first = installments[0];
  if (first === undefined) throw new Error('a plan has at least two installments');
  const cadence: StoredCadence | null =
    input.equal === undefined
      ? null
      : input.equal.interval.kind === 'weekly'
        ? {
            kind: 'weekly',
            intervalWeeks: input.equal.interval.every ?? 1,
            dayOfMonth: null,
            intervalMonths: null,
          }
        : {
            kind: 'monthly',
            intervalWeeks: null,
            dayOfMonth: parseIsoDate(first.dueDate).day,
            intervalMonths: input.equal.interval.every ?? 1,
          };
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
  let threshold = invoice.amountPaidMinor;
  await unit.db
    .insertInto('payment_plan_installments')
    .values(
      installments.map((item) => {
        threshold += item.amountMinor;
        return {
          id: newId(),
          organization_id: unit.organizationId,
          schedule_id: row.id,
          invoice_id: invoice.id,
          sequence: item.sequence,
          due_date: item.dueDate,
          amount_minor: item.amountMinor.toString(),
          paid_threshold_minor: threshold.toString(),
          reminded_at: null,
          paid_at: null,
          created_at: row.created_at,
        };
      }),
    )
    .execute();
  await recordChange(unit, null, row, 'invoice.schedule.created');
  return row;
}

function planExists(planId: string | null): AppError {
  return new AppError('payment_plan_exists', 'The invoice already has an active or paused payment plan.', {
    field: 'invoiceId',
    ...(planId === null ? {} : { details: { plan_id: planId } }),
  });
}
