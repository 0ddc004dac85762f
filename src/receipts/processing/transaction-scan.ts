import type { UnitRuntime } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { transactionById } from './candidates.ts';
import { matchNewTransaction } from './suggestions.ts';

export const TRANSACTION_SCAN_JOB = 'receipts.match.transactions';
const BATCH = 100;

/**
 * The other direction of matching: transactions that arrived (imports, transactions.create) are
 * looked at once each for waiting receipts. The books do not call receipts (that would be an
 * import cycle), so this job finds them by `match_scanned_at is null`; each transaction is scanned
 * in its own unit of work that also sets the mark, so a crash repeats at most that one.
 */
export async function scanNewTransactions(runtime: UnitRuntime): Promise<number> {
  const rows = await runtime.db.kysely
    .selectFrom('bank_transactions')
    .select(['id', 'organization_id', 'status', 'receipt_id'])
    .where('match_scanned_at', 'is', null)
    .orderBy('created_at')
    .limit(BATCH)
    .execute();
  for (const row of rows) {
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
  }
  return rows.length;
}
