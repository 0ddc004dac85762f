import { sql } from 'kysely';
import { enqueueJob } from '../../books/jobs-queue.ts';
import { dbJson } from '../../db/values.ts';
import type { UnitRuntime } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { readerStatus } from '../extraction/readers.ts';
import type { ReviewReason } from '../extraction/types.ts';

export const REREAD_JOB = 'receipts.reread';
/** Receipts put back per run; a run that did work is followed at once by another. */
const BATCH = 50;

/**
 * A receipt that arrived while the program it needs was missing (a photo or scan without
 * Tesseract: `ocr_unavailable`; a PDF without pdftotext: `reader_unavailable`) waits for review
 * with that reason. Once the program is on this machine, each such receipt goes back to `new`
 * with a fresh extraction job, in one unit of work per receipt (audited, actor the job), so that
 * nobody has to upload it again. Receipts of every organization; returns how many were put back.
 */
export async function rereadWhenReadersArrive(runtime: UnitRuntime): Promise<number> {
  const status = await readerStatus();
  const ready: ReviewReason[] = [
    ...(status.ocr ? (['ocr_unavailable'] as const) : []),
    ...(status.pdfText ? (['reader_unavailable'] as const) : []),
  ];
  if (ready.length === 0) return 0;
  const waiting = await runtime.db.kysely
    .selectFrom('receipts')
    .select(['id', 'organization_id', 'revision', 'received_by', 'file_name', 'media_type'])
    .where('state', '=', 'needs_review')
    .where((eb) =>
      eb.or(ready.map((reason) => eb(sql`cast(review_reasons as text)`, 'like', `%"${reason}"%`))),
    )
    .orderBy('id')
    .limit(BATCH)
    .execute();
  let putBack = 0;
  for (const receipt of waiting) {
    await withUnit(
      runtime,
      {
        organizationId: receipt.organization_id,
        actor: { type: 'job', job: REREAD_JOB },
        operation: REREAD_JOB,
      },
      async (unit) => {
        const now = unit.clock.now().toISOString();
        const job = await enqueueJob(unit, {
          organizationId: receipt.organization_id,
          kind: 'receipt_extraction',
          accountId: null,
          params: { receiptId: receipt.id },
          fileName: receipt.file_name,
          mediaType: receipt.media_type,
          fileBytes: null,
          createdBy: receipt.received_by,
          now,
        });
        // Compare-and-set: a person who changed the receipt meanwhile keeps their change.
        const updated = await unit.db
          .updateTable('receipts')
          .set({
            state: 'new',
            review_reasons: dbJson([]),
            job_id: job.id,
            revision: receipt.revision + 1,
            updated_at: now,
          })
          .where('id', '=', receipt.id)
          .where('organization_id', '=', receipt.organization_id)
          .where('revision', '=', receipt.revision)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw new SkipReceipt();
        await unit.audit({
          recordType: 'receipt',
          recordId: receipt.id,
          beforeRevision: receipt.revision,
          afterRevision: receipt.revision + 1,
        });
        putBack++;
      },
    ).catch((error: unknown) => {
      // The rollback also removes the job enqueued above (and its wake-up).
      if (!(error instanceof SkipReceipt)) throw error;
    });
  }
  return putBack;
}

class SkipReceipt extends Error {}
