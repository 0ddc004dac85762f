import type { Insertable, Kysely, Updateable } from 'kysely';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { InvoiceSchedulesTable } from '../../db/tables/schedules.ts';
import { asIso, asJson, asMinor } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { Schedule, ScheduleEnd } from '../cadence.ts';
import { type IsoDate, localDateIn } from '../calendar.ts';
import {
  type InstallmentRow,
  type InvoiceSchedule,
  type ScheduleRow,
  toInstallment,
  toSchedule,
} from './records.ts';
import { type StoredCadence, toDomainCadence } from './wire.ts';

/** Schedules of one organization (never any other). */
export function selectSchedules(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('invoice_schedules').selectAll().where('organization_id', '=', organizationId);
}

export async function findSchedule(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<ScheduleRow | undefined> {
  return selectSchedules(db, organizationId).where('id', '=', id).executeTakeFirst();
}

/** The schedule or a 404 naming `field`; a row of another organization is "not found". */
export async function requireSchedule(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  field = 'id',
): Promise<ScheduleRow> {
  const row = await findSchedule(db, organizationId, id);
  if (!row) throw notFound('Schedule', field);
  return row;
}

/** The columns a new schedule's creator chooses; `newScheduleRow` fills in the rest. */
export type NewScheduleFields = Required<
  Pick<
    Insertable<InvoiceSchedulesTable>,
    | 'kind'
    | 'name'
    | 'party_id'
    | 'currency'
    | 'template'
    | 'cadence'
    | 'start_date'
    | 'end_condition'
    | 'auto_send'
    | 'invoice_id'
    | 'time_zone'
    | 'next_run_date'
    | 'active_since'
  >
>;

/** Every column of a new, active schedule at revision 1 (recurring schedule or payment plan). */
export function newScheduleRow(organizationId: string, now: Date, fields: NewScheduleFields) {
  return {
    id: newId(),
    organization_id: organizationId,
    status: 'active',
    ...fields,
    last_run_date: null,
    occurrences_created: 0,
    paused_at: null,
    cancelled_at: null,
    completed_at: null,
    revision: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
}

/** The cadence/start/end of a recurring schedule as the pure cadence functions want it. */
export function domainSchedule(row: ScheduleRow): Schedule {
  if (row.cadence === null) throw new Error(`schedule ${row.id} has no cadence`);
  return {
    cadence: toDomainCadence(asJson<StoredCadence>(row.cadence)),
    startDate: row.start_date,
    end: asJson<ScheduleEnd>(row.end_condition),
  };
}

export function scheduleToday(row: Pick<ScheduleRow, 'time_zone'>, now: Date): IsoDate {
  return localDateIn(row.time_zone, now);
}

/**
 * Compare-and-set on the revision (and, for the worker, on the status it saw): the change applies
 * only to the row as it was read, and bumps the revision. Undefined when the row changed meanwhile.
 */
export async function tryUpdateSchedule(
  db: Kysely<Database>,
  row: ScheduleRow,
  changes: Updateable<InvoiceSchedulesTable>,
  now: Date,
): Promise<ScheduleRow | undefined> {
  return db
    .updateTable('invoice_schedules')
    .set({ ...changes, revision: row.revision + 1, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('organization_id', '=', row.organization_id)
    .where('revision', '=', row.revision)
    .where('status', '=', row.status)
    .returningAll()
    .executeTakeFirst();
}

/** tryUpdateSchedule for a caller's request: a lost race (or stale expectedRevision) is a 409. */
export async function updateSchedule(
  db: Kysely<Database>,
  row: ScheduleRow,
  changes: Updateable<InvoiceSchedulesTable>,
  now: Date,
): Promise<ScheduleRow> {
  const updated = await tryUpdateSchedule(db, row, changes, now);
  if (updated) return updated;
  const current = await findSchedule(db, row.organization_id, row.id);
  if (!current) throw notFound('Schedule', 'id');
  throw revisionConflict(current.revision);
}

/** Wire records for a page of schedules: installments (and the invoices' amounts paid) in two queries. */
export async function scheduleRecords(
  db: Kysely<Database>,
  rows: readonly ScheduleRow[],
  now: Date,
): Promise<InvoiceSchedule[]> {
  const plans = rows.filter((row) => row.kind === 'payment_plan');
  const byPlan = new Map<string, InstallmentRow[]>();
  const paidByInvoice = new Map<string, bigint>();
  if (plans.length > 0) {
    const organizationId = plans[0]?.organization_id ?? '';
    const installments = await db
      .selectFrom('payment_plan_installments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where(
        'schedule_id',
        'in',
        plans.map((plan) => plan.id),
      )
      .orderBy('sequence')
      .execute();
    for (const item of installments) {
      const list = byPlan.get(item.schedule_id) ?? [];
      list.push(item);
      byPlan.set(item.schedule_id, list);
    }
    const invoiceIds = plans.map((plan) => plan.invoice_id).filter((id): id is string => id !== null);
    const invoices = await db
      .selectFrom('invoices')
      .select(['id', 'amount_paid_minor'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', invoiceIds)
      .execute();
    for (const invoice of invoices) paidByInvoice.set(invoice.id, asMinor(invoice.amount_paid_minor));
  }
  return rows.map((row) => {
    if (row.kind !== 'payment_plan') return toSchedule(row, null);
    const asOf =
      row.status === 'cancelled' && row.cancelled_at !== null
        ? { frozenOn: scheduleToday(row, new Date(asIso(row.cancelled_at))) }
        : { amountPaidMinor: paidByInvoice.get(row.invoice_id ?? '') ?? 0n, today: scheduleToday(row, now) };
    return toSchedule(
      row,
      (byPlan.get(row.id) ?? []).map((item) => toInstallment(item, asOf)),
    );
  });
}

export async function scheduleRecord(
  db: Kysely<Database>,
  row: ScheduleRow,
  now: Date,
): Promise<InvoiceSchedule> {
  const [record] = await scheduleRecords(db, [row], now);
  if (!record) throw new Error('unreachable: one row gives one record');
  return record;
}
