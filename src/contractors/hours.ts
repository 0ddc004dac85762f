import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import { parseScaledDecimal, roundHalfEven } from '../lib/decimal.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import type { HoursRow } from './hours-wire.ts';

/** At most 24.00 hours a day, in hundredths, never zero. */
const MAX_HUNDREDTHS = 2400n;

/** The wire pattern of `hours`: 0-24 with up to two fraction digits (zero refused by `parseHours`). */
export const HOURS_PATTERN = '^(0|[1-9]|1[0-9]|2[0-4])(\\.[0-9]{1,2})?$';

export interface HoursFields {
  workDate: string;
  hours: string;
  description: string;
}

/** "7.25" -> 725n; 0 and more than 24 are refused naming the field. */
export function parseHours(text: string, field = 'hours'): bigint {
  const value = parseScaledDecimal(text, { maxIntegerDigits: 2, scale: 2 });
  if (value === null || value <= 0n || value > MAX_HUNDREDTHS) {
    throw new AppError('invalid_input', 'hours must be a decimal above 0 and at most 24, e.g. "7.25".', {
      field,
    });
  }
  return value;
}

/** The contractor's role rate and currency; no role is a 409 `rate_missing`. */
export async function contractorRate(unit: UnitOfWork, contractorId: string) {
  const row = await unit.db
    .selectFrom('contractors as c')
    .leftJoin('job_roles as r', (join) =>
      join.onRef('r.id', '=', 'c.job_role_id').onRef('r.organization_id', '=', 'c.organization_id'),
    )
    .select(['c.id', 'r.hourly_rate_minor', 'r.currency', 'r.pay_cadence'])
    .where('c.organization_id', '=', unit.organizationId)
    .where('c.id', '=', contractorId)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor', 'contractorId');
  if (row.hourly_rate_minor === null || row.currency === null || row.pay_cadence === null) {
    throw new AppError(
      'rate_missing',
      'The contractor has no job role, so no hourly rate; assign a role with contractorOps.roles.assign.',
      { field: 'contractorId' },
    );
  }
  return { rateMinor: BigInt(row.hourly_rate_minor), currency: row.currency, payCadence: row.pay_cadence };
}

/** hours x rate in minor units, exact: hundredths x rate / 100, ties to even. */
export function amountFor(hundredths: bigint, rateMinor: bigint): bigint {
  return roundHalfEven(hundredths * rateMinor, 100n);
}

function actorRef(unit: UnitOfWork): { type: 'member' | 'contractor'; id: string } {
  if (unit.actor.type === 'contractor') return { type: 'contractor', id: unit.actor.contractorId };
  if (unit.actor.type === 'member') return { type: 'member', id: unit.actor.memberId };
  if (unit.actor.type === 'operator') return { type: 'member', id: `operator:${unit.actor.user}` };
  return { type: 'member', id: `job:${unit.actor.job}` };
}

export async function submitHours(unit: UnitOfWork, contractorId: string, fields: HoursFields) {
  const hundredths = parseHours(fields.hours);
  const rate = await contractorRate(unit, contractorId);
  const now = unit.clock.now().toISOString();
  const by = actorRef(unit);
  const row = {
    id: newId(),
    organization_id: unit.organizationId,
    contractor_id: contractorId,
    work_date: fields.workDate,
    hours_hundredths: hundredths.toString(),
    description: fields.description,
    rate_minor: rate.rateMinor.toString(),
    amount_minor: amountFor(hundredths, rate.rateMinor).toString(),
    currency: rate.currency,
    status: 'submitted' as const,
    rejection_reason: null,
    submitted_by_type: by.type,
    submitted_by_id: by.id,
    decided_by: null,
    decided_at: null,
    payout_id: null,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await unit.db.insertInto('contractor_hours').values(row).execute();
  await unit.audit({
    recordType: 'contractor_hours',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: 1,
  });
  await unit.emit({
    type: 'hours.submitted',
    subject: { type: 'contractor_hours', id: row.id },
    data: { contractorId, workDate: row.work_date, hours: fields.hours, amountMinor: row.amount_minor },
  });
  return loadHours(unit, row.id);
}

/** The hours of the unit's organization (and of `contractorId` when given, for the portal), or 404. */
export async function loadHours(unit: UnitOfWork, id: string, contractorId?: string): Promise<HoursRow> {
  let query = unit.db
    .selectFrom('contractor_hours')
    .selectAll()
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', id);
  if (contractorId !== undefined) query = query.where('contractor_id', '=', contractorId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('Hours', 'id');
  return row;
}

/** Revision first (a stale caller reloads), then the state: only submitted hours change. */
export function checkSubmitted(row: HoursRow, expectedRevision: number): void {
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  if (row.status !== 'submitted') {
    throw new AppError('hours_not_submitted', `The hours are ${row.status}; only submitted hours change.`, {
      field: 'id',
      details: { status: row.status },
    });
  }
}

/** Compare-and-set from `row` (still submitted, same revision) to `set`, audited. */
async function change(unit: UnitOfWork, row: HoursRow, set: Partial<HoursRow>): Promise<HoursRow> {
  const revision = row.revision + 1;
  const result = await unit.db
    .updateTable('contractor_hours')
    .set({ ...set, revision, updated_at: unit.clock.now().toISOString() })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .where('status', '=', 'submitted')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    checkSubmitted(await loadHours(unit, row.id), row.revision);
  }
  await unit.audit({
    recordType: 'contractor_hours',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: revision,
  });
  return loadHours(unit, row.id);
}

export async function updateHours(
  unit: UnitOfWork,
  row: HoursRow,
  fields: Partial<HoursFields>,
): Promise<HoursRow> {
  const set: Partial<HoursRow> = {};
  if (fields.workDate !== undefined) set.work_date = fields.workDate;
  if (fields.description !== undefined) set.description = fields.description;
  if (fields.hours !== undefined) {
    const hundredths = parseHours(fields.hours);
    // The rate is read again: an update re-prices the hours at the role's current rate.
    const rate = await contractorRate(unit, row.contractor_id);
    set.hours_hundredths = hundredths.toString();
    set.rate_minor = rate.rateMinor.toString();
    set.amount_minor = amountFor(hundredths, rate.rateMinor).toString();
    set.currency = rate.currency;
  }
  const updated = await change(unit, row, set);
  await unit.emit({
    type: 'hours.updated',
    subject: { type: 'contractor_hours', id: row.id },
    data: { contractorId: row.contractor_id, ...fields },
  });
  return updated;
}

export async function decideHours(
  unit: UnitOfWork,
  row: HoursRow,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<HoursRow> {
  const by = actorRef(unit);
  const updated = await change(unit, row, {
    status: decision.approve ? 'approved' : 'rejected',
    rejection_reason: decision.approve ? null : decision.reason,
    decided_by: by.id,
    decided_at: unit.clock.now().toISOString(),
  });
  await unit.emit({
    type: decision.approve ? 'hours.approved' : 'hours.rejected',
    subject: { type: 'contractor_hours', id: row.id },
    data: decision.approve
      ? { contractorId: row.contractor_id, amountMinor: String(updated.amount_minor) }
      : { contractorId: row.contractor_id, reason: decision.reason },
  });
  return updated;
}
