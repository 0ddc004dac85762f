import type { Kysely } from 'kysely';
import { postPayoutEntry } from '../books/payout-posting.ts';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import { asMinor } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { contractorRate } from './hours.ts';
import { formatHundredths } from './hours-wire.ts';
import { periodStart } from './pay-period.ts';
import { type Payout, type PayoutRow, toPayout } from './payout-wire.ts';

export interface FixedAmount {
  description: string;
  amountMinor: bigint;
}

/**
 * A payout for one pay period: every approved hours record of the period not yet in a payout,
 * in the role's currency, plus the fixed amounts. Hours priced in another currency (the role's
 * currency changed after they were submitted) are left out and stay approved: one payout is in
 * one currency (docs/contractors.md).
 */
export async function createPayout(
  unit: UnitOfWork,
  contractorId: string,
  input: { periodEnd: string; fixedAmounts: readonly FixedAmount[] },
): Promise<PayoutRow> {
  const rate = await contractorRate(unit, contractorId);
  const start = periodStart(rate.payCadence, input.periodEnd);
  const hours = await unit.db
    .selectFrom('contractor_hours')
    .selectAll()
    .where('organization_id', '=', unit.organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'approved')
    .where('payout_id', 'is', null)
    .where('currency', '=', rate.currency)
    .where('work_date', '>=', start)
    .where('work_date', '<=', input.periodEnd)
    .orderBy('work_date')
    .orderBy('id')
    .execute();
  if (hours.length === 0 && input.fixedAmounts.length === 0) {
    throw new AppError(
      'payout_empty',
      `No approved hours between ${start} and ${input.periodEnd} and no fixedAmounts: nothing to pay.`,
      { field: 'periodEnd', details: { period_start: start, period_end: input.periodEnd } },
    );
  }
  const lines = [
    ...hours.map((h) => ({
      kind: 'hours' as const,
      hours_id: h.id,
      description: `${formatHundredths(asMinor(h.hours_hundredths))} h on ${h.work_date}: ${h.description}`,
      amount: asMinor(h.amount_minor),
    })),
    ...input.fixedAmounts.map((f) => ({
      kind: 'fixed' as const,
      hours_id: null,
      description: f.description,
      amount: f.amountMinor,
    })),
  ];
  const total = lines.reduce((sum, line) => sum + line.amount, 0n);
  const now = unit.clock.now().toISOString();
  const id = newId();
  await unit.db
    .insertInto('contractor_payments')
    .values({
      id,
      organization_id: unit.organizationId,
      contractor_id: contractorId,
      amount_minor: total.toString(),
      currency: rate.currency,
      status: 'unpaid',
      pay_cadence: rate.payCadence,
      period_start: start,
      period_end: input.periodEnd,
      paid_on: null,
      reference: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await unit.db
    .insertInto('contractor_payout_lines')
    .values(
      lines.map((line, position) => ({
        id: newId(),
        organization_id: unit.organizationId,
        payout_id: id,
        position,
        kind: line.kind,
        hours_id: line.hours_id,
        description: line.description,
        amount_minor: line.amount.toString(),
      })),
    )
    .execute();
  if (hours.length > 0) {
    // Still approved and in no payout: a concurrent payout claiming the same hours loses here.
    const claimed = await unit.db
      .updateTable('contractor_hours')
      .set({ payout_id: id })
      .where('organization_id', '=', unit.organizationId)
      .where(
        'id',
        'in',
        hours.map((h) => h.id),
      )
      .where('payout_id', 'is', null)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== hours.length) {
      throw new AppError('revision_conflict', 'Some of the hours were taken by another payout; retry.', {
        field: 'periodEnd',
      });
    }
  }
  await unit.audit({ recordType: 'payout', recordId: id, beforeRevision: null, afterRevision: 1 });
  await unit.emit({
    type: 'payout.created',
    subject: { type: 'payout', id },
    data: {
      contractorId,
      amountMinor: total.toString(),
      currency: rate.currency,
      periodStart: start,
      periodEnd: input.periodEnd,
      hoursCount: hours.length,
    },
  });
  return loadPayout(unit.db, unit.organizationId, id);
}

export async function loadPayout(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  contractorId?: string,
): Promise<PayoutRow> {
  let query = db
    .selectFrom('contractor_payments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  if (contractorId !== undefined) query = query.where('contractor_id', '=', contractorId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('Payout', 'id');
  return row;
}

/** Payouts with their lines, in the order of `rows`. */
export async function withLines(
  db: Kysely<Database>,
  organizationId: string,
  rows: readonly PayoutRow[],
): Promise<Payout[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom('contractor_payout_lines')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where(
      'payout_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('position')
    .execute();
  return rows.map((row) =>
    toPayout(
      row,
      lines.filter((line) => line.payout_id === row.id),
    ),
  );
}

/**
 * unpaid -> paid: the payout's hours become paid (each audited) and the payment posts its
 * ledger entry, all in the caller's unit of work.
 */
export async function markPayoutPaid(
  unit: UnitOfWork,
  row: PayoutRow,
  expectedRevision: number,
  payment: { paidOn: string; reference: string },
): Promise<PayoutRow> {
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  if (row.status === 'paid') {
    throw new AppError('payout_already_paid', `The payout was already paid on ${row.paid_on}.`, {
      field: 'id',
      details: { paid_on: row.paid_on },
    });
  }
  const now = unit.clock.now().toISOString();
  const result = await unit.db
    .updateTable('contractor_payments')
    .set({
      status: 'paid',
      paid_on: payment.paidOn,
      reference: payment.reference,
      revision: row.revision + 1,
      updated_at: now,
    })
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .where('status', '=', 'unpaid')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const current = await loadPayout(unit.db, unit.organizationId, row.id);
    return markPayoutPaid(unit, current, expectedRevision, payment);
  }
  await unit.audit({
    recordType: 'payout',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: row.revision + 1,
  });
  const hours = await unit.db
    .selectFrom('contractor_hours')
    .select(['id', 'revision'])
    .where('organization_id', '=', unit.organizationId)
    .where('payout_id', '=', row.id)
    .execute();
  for (const h of hours) {
    await unit.db
      .updateTable('contractor_hours')
      .set({ status: 'paid', revision: h.revision + 1, updated_at: now })
      .where('organization_id', '=', unit.organizationId)
      .where('id', '=', h.id)
      .execute();
    await unit.audit({
      recordType: 'contractor_hours',
      recordId: h.id,
      beforeRevision: h.revision,
      afterRevision: h.revision + 1,
    });
  }
  const contractor = await unit.db
    .selectFrom('contractors')
    .select('legal_name')
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', row.contractor_id)
    .executeTakeFirstOrThrow();
  await postPayoutEntry(
    unit.db,
    unit.organizationId,
    {
      id: row.id,
      paidOn: payment.paidOn,
      contractorName: contractor.legal_name,
      currency: row.currency,
      amountMinor: asMinor(row.amount_minor),
    },
    now,
  );
  await unit.emit({
    type: 'payout.paid',
    subject: { type: 'payout', id: row.id },
    data: {
      contractorId: row.contractor_id,
      amountMinor: asMinor(row.amount_minor).toString(),
      currency: row.currency,
      paidOn: payment.paidOn,
      reference: payment.reference,
    },
  });
  return loadPayout(unit.db, unit.organizationId, row.id);
}
