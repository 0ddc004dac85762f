import { isDateInRange, isMinorInRange } from '../../contract/formats.ts';
import { asMinor } from '../../db/values.ts';
import type { Metrics } from '../../observability/metrics.ts';
import type { UnitRuntime } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { transactionById } from './candidates.ts';
import { matchNewTransaction } from './suggestions.ts';

export const TRANSACTION_SCAN_JOB = 'receipts.match.transactions';
const BATCH = 500;

/**
 * The other direction of matching: transactions that arrived (imports, transactions.create) are
 * looked at once each for waiting receipts. The books do not call receipts (that would be an
 * import cycle), so this job finds them by `match_scanned_at is null`; each transaction is scanned
 * in its own unit of work that also sets the mark, so a crash repeats at most that one. A row whose
 * scan throws is set aside (marked scanned outside the failed unit, logged at warn, counted in
 * `accounting_job_failures_total{outcome="skipped"}`): it never comes first again on the next run
 * and never stops the rows of its own or any other organization (decision 331).
 */
export async function scanNewTransactions(runtime: UnitRuntime & { metrics?: Metrics }): Promise<number> {
  const rows = await runtime.db.kysely
    .selectFrom('bank_transactions')
    .select(['id', 'organization_id', 'status', 'receipt_id', 'booked_date', 'amount_minor'])
    .where('match_scanned_at', 'is', null)
    .orderBy('created_at')
    .limit(BATCH)
    .execute();
  // Fast path: an organization with no receipt waiting (most statement imports) gets its
  // transactions marked in one statement instead of one unit of work each. A receipt read just
  // after the check loses nothing: reading a receipt looks for open transactions itself.
  const busy = new Set<string>();
  for (const organizationId of new Set(rows.map((r) => r.organization_id))) {
    const waiting = await runtime.db.kysely
      .selectFrom('receipts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('state', 'in', ['ready', 'needs_review'])
      .where('transaction_id', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (waiting) {
      busy.add(organizationId);
      continue;
    }
    const ids = rows.filter((r) => r.organization_id === organizationId).map((r) => r.id);
    await runtime.db.kysely
      .updateTable('bank_transactions')
      .set({ match_scanned_at: runtime.clock.now().toISOString() })
      .where('id', 'in', ids)
      .where('match_scanned_at', 'is', null)
      .execute();
  }
  for (const row of rows.filter((r) => busy.has(r.organization_id))) {
    // A row an old release stored outside the ranges (decision 400): no match is looked for,
    // before any date arithmetic can throw on it; set aside with its own outcome, not a failure.
    if (!storedInRange(row)) {
      await setAside(runtime, row, 'out_of_range', undefined);
      continue;
    }
    try {
      await withUnit(
        runtime,
        {
          organizationId: row.organization_id,
          actor: { type: 'job', job: TRANSACTION_SCAN_JOB },
          operation: TRANSACTION_SCAN_JOB,
        },
        async (unit) => {
          const marked = await unit.db
            .updateTable('bank_transactions')
            .set({ match_scanned_at: unit.clock.now().toISOString() })
            .where('id', '=', row.id)
            .where('match_scanned_at', 'is', null)
            .executeTakeFirst();
          // Another worker scanned it first.
          if (marked.numUpdatedRows === 0n || row.status !== 'unmatched' || row.receipt_id !== null) return;
          const candidate = await transactionById(unit.db, row.organization_id, row.id);
          if (candidate) await matchNewTransaction(unit, candidate);
        },
      );
    } catch (error) {
      await setAside(runtime, row, 'skipped', error);
    }
  }
  return rows.length;
}

/** A stored date and amount within the service's ranges (decisions 320, 321). */
function storedInRange(row: { booked_date: unknown; amount_minor: unknown }): boolean {
  try {
    return isDateInRange(String(row.booked_date)) && isMinorInRange(asMinor(row.amount_minor));
  } catch {
    return false;
  }
}

/**
 * Marks a transaction as scanned without scanning it, so the batch (and the next run) goes on
 * without it: `skipped` when its scan threw, `out_of_range` when it was stored outside the ranges.
 */
async function setAside(
  runtime: UnitRuntime & { metrics?: Metrics },
  row: { id: string; organization_id: string },
  outcome: 'skipped' | 'out_of_range',
  error: unknown,
): Promise<void> {
  runtime.metrics?.recordJobFailure(TRANSACTION_SCAN_JOB, outcome);
  runtime.logger.warn(
    {
      err: error,
      job: TRANSACTION_SCAN_JOB,
      transactionId: row.id,
      organizationId: row.organization_id,
      outcome,
    },
    outcome === 'skipped'
      ? 'matching skipped a transaction it could not scan'
      : 'matching set aside a transaction stored outside the date or money range',
  );
  await runtime.db.kysely
    .updateTable('bank_transactions')
    .set({ match_scanned_at: runtime.clock.now().toISOString() })
    .where('id', '=', row.id)
    .where('organization_id', '=', row.organization_id)
    .where('match_scanned_at', 'is', null)
    .execute();
}
