import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type ClaimedJob, claimJob, emptyCounts, finishJob } from '../../books/jobs-queue.ts';
import { asIso, asJson, dbJson } from '../../db/values.ts';
import { readFile } from '../../files/store.ts';
import type { UnitRuntime } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { extractReceipt } from '../extraction/index.ts';
import type { ExtractionResult } from '../extraction/types.ts';
import { postReceiptEntry } from './entry.ts';
import { fieldsToJson, type ReceiptSummary, summaryOf } from './fields.ts';
import { matchNewReceipt } from './suggestions.ts';

export const EXTRACTION_JOB = 'receipts.extract';
/** A receipt whose worker died this many times fails instead of being tried again (a poison file). */
const MAX_ATTEMPTS = 3;
const RETENTION_MS = 7 * 86_400_000;

const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Extraction as a leased job of the books queue (kind `receipt_extraction`): claim, mark the
 * receipt `processing`, read its original, extract in the worker pool (bounded time and memory,
 * src/receipts/extraction/pool.ts), then in one unit of work store the result, post the receipt
 * entry, look for transactions and emit `receipt.processed`. A hostile file ends as a failed job
 * and a failed receipt with the extractor's stable code; nothing else is written for it.
 * Returns 1 when it ran one job, 0 when idle.
 */
export async function runReceiptExtractions(runtime: UnitRuntime): Promise<number> {
  const job = await claimJob(runtime.db, 'receipt_extraction', workerId, runtime.clock.now());
  if (!job) return 0;
  await runExtraction(runtime, job);
  return 1;
}

async function runExtraction(runtime: UnitRuntime, job: ClaimedJob): Promise<void> {
  const db = runtime.db.kysely;
  const jobRow = await db
    .selectFrom('books_jobs')
    .select('params')
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow();
  const { receiptId } = asJson<{ receiptId: string }>(jobRow.params);
  const receipt = await db
    .selectFrom('receipts')
    .select(['id', 'file_id', 'file_name', 'media_type', 'state'])
    .where('organization_id', '=', job.organizationId)
    .where('id', '=', receiptId)
    .executeTakeFirst();
  if (!receipt) {
    await finish(runtime, job, receiptId, {
      status: 'failed',
      code: 'corrupt_file',
      reason: 'the receipt is gone',
    });
    return;
  }
  await markProcessing(runtime, job, receipt.id);
  let result: ExtractionResult;
  if (job.attempts > MAX_ATTEMPTS) {
    result = {
      status: 'failed',
      code: 'timeout',
      reason: `extraction stopped its worker ${MAX_ATTEMPTS} times`,
    };
  } else {
    const file = await readFile(db, job.organizationId, receipt.file_id);
    result = file
      ? await extractReceipt({
          bytes: file.bytes,
          fileName: receipt.file_name,
          mediaType: receipt.media_type,
        })
      : { status: 'failed', code: 'corrupt_file', reason: 'the original is not stored' };
  }
  await finish(runtime, job, receipt.id, result);
}

/**
 * A new receipt shows as being read. Through a unit like every change (issue 24 part 4): audited
 * as the extraction job; the revision stays, so a member's expectedRevision from the upload holds.
 */
async function markProcessing(runtime: UnitRuntime, job: ClaimedJob, receiptId: string): Promise<void> {
  await withUnit(
    runtime,
    {
      organizationId: job.organizationId,
      actor: { type: 'job', job: EXTRACTION_JOB },
      operation: EXTRACTION_JOB,
    },
    async (unit) => {
      const marked = await unit.db
        .updateTable('receipts')
        .set({ state: 'processing', updated_at: unit.clock.now().toISOString() })
        .where('organization_id', '=', job.organizationId)
        .where('id', '=', receiptId)
        .where('state', '=', 'new')
        .returning('revision')
        .executeTakeFirst();
      if (marked) {
        await unit.audit({
          recordType: 'receipt',
          recordId: receiptId,
          beforeRevision: marked.revision,
          afterRevision: marked.revision,
        });
      }
    },
  );
}

async function finish(
  runtime: UnitRuntime,
  job: ClaimedJob,
  receiptId: string,
  result: ExtractionResult,
): Promise<void> {
  await withUnit(
    runtime,
    {
      organizationId: job.organizationId,
      actor: { type: 'job', job: EXTRACTION_JOB },
      operation: EXTRACTION_JOB,
    },
    async (unit) => {
      const now = unit.clock.now().toISOString();
      const finished = await finishJob(unit.db, job, workerId, {
        state: result.status === 'failed' ? 'failed' : 'succeeded',
        now,
        purgeAfter: new Date(Date.parse(now) + RETENTION_MS).toISOString(),
        counts: emptyCounts(),
        ...(result.status === 'failed' ? { error: { code: result.code, message: result.reason } } : {}),
      });
      // Lost the lease (another worker took the job over): that worker writes the outcome.
      if (!finished) return;
      const row = await unit.db
        .selectFrom('receipts')
        .select(['id', 'state', 'revision', 'created_at', 'file_name'])
        .where('id', '=', receiptId)
        .where('organization_id', '=', job.organizationId)
        .executeTakeFirst();
      if (!row) return;
      const stateOf = (next: string) => (row.state === 'ignored' ? 'ignored' : next);
      let entryId: string | null = null;
      let summary: ReceiptSummary = {
        merchant: null,
        date: null,
        totalMinor: null,
        currency: null,
        cardLastFour: null,
        servicePeriodStart: null,
      };
      if (result.status === 'failed') {
        await unit.db
          .updateTable('receipts')
          .set({
            state: stateOf('failed'),
            state_before_ignore: row.state === 'ignored' ? 'failed' : null,
            failure_code: result.code,
            failure_message: result.reason.slice(0, 500),
            revision: row.revision + 1,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .execute();
      } else {
        summary = summaryOf(result);
        // Nothing unreviewed reaches the books (decision 333): a read that needs review posts its
        // entry when a person confirms it (inbox.confirm).
        if (result.status === 'ready' && summary.totalMinor !== null && summary.currency !== null) {
          const created = asIso(row.created_at);
          entryId = await postReceiptEntry(
            unit.db,
            {
              organizationId: job.organizationId,
              receiptId: row.id,
              date: summary.date ?? created.slice(0, 10),
              description: summary.merchant ?? row.file_name,
              currency: summary.currency,
            },
            summary.totalMinor,
            result.fields,
            now,
          );
        }
        await unit.db
          .updateTable('receipts')
          .set({
            state: stateOf(result.status),
            state_before_ignore: row.state === 'ignored' ? result.status : null,
            kind: result.kind,
            fields: dbJson(fieldsToJson(result.fields)),
            review_reasons: dbJson(result.reasons),
            merchant: summary.merchant?.slice(0, 300) ?? null,
            document_date: summary.date,
            service_period_start: summary.servicePeriodStart,
            total_minor: summary.totalMinor === null ? null : summary.totalMinor.toString(),
            currency: summary.currency,
            card_last_four: summary.cardLastFour,
            entry_id: entryId,
            revision: row.revision + 1,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .execute();
      }
      // The read's outcome is a change of the receipt like any other: audited as the job.
      await unit.audit({
        recordType: 'receipt',
        recordId: row.id,
        beforeRevision: row.revision,
        afterRevision: row.revision + 1,
      });
      const matching =
        result.status !== 'failed' && row.state !== 'ignored' && summary.totalMinor !== null
          ? await matchNewReceipt(unit, row.id)
          : { suggestions: 0, autoMatched: false };
      await unit.emit({
        type: 'receipt.processed',
        subject: { type: 'receipt', id: row.id },
        data: {
          state: result.status,
          kind: result.status === 'failed' ? null : result.kind,
          merchant: summary.merchant,
          totalMinor: summary.totalMinor === null ? null : summary.totalMinor.toString(),
          currency: summary.currency,
          entryId,
          reviewReasons: result.status === 'failed' ? [] : result.reasons,
          failureCode: result.status === 'failed' ? result.code : null,
          suggestions: matching.suggestions,
        },
      });
    },
  );
}
