import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { dbJson } from '../db/values.ts';
import { readFileParts, writeFileParts } from '../files/parts.ts';
import { newId } from '../lib/ids.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';

/**
 * The books job queue (statement imports and entry exports): the only module that writes
 * `books_jobs`. A job is claimed with a lease (`locked_until`, `locked_by`); a worker that dies
 * lets the lease lapse and another claims the job again. PostgreSQL: the candidate is picked
 * `FOR UPDATE SKIP LOCKED`; SQLite: the claim is one BEGIN IMMEDIATE transaction. Imports of one
 * account never run side by side (the dedupe compares with what earlier imports added): an import
 * is claimable only while no other import of its account holds a live lease, checked under a lock
 * of the account row on PostgreSQL.
 */

export type BooksJobKind = 'statement_import' | 'entries_export' | 'receipt_extraction';
export type BooksJobState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ImportCounts {
  read: number;
  added: number;
  duplicates: number;
  rejected: number;
  pending: number;
}

export interface RejectedLine {
  line: number;
  reason: string;
}

/** At most this many rejected lines are kept with their reasons (the count is always exact). */
export const MAX_REJECTED_KEPT = 1000;
export const LEASE_MS = 60_000;

/**
 * Attempts per kind before a job ends `failed` for good (decision 330). Extraction counts its own
 * (src/receipts/processing/job.ts fails the receipt itself after its worker died 3 times), so the
 * queue leaves it alone; imports and exports that threw or whose worker died stop here.
 */
export const MAX_ATTEMPTS: Readonly<Record<BooksJobKind, number | null>> = {
  statement_import: 5,
  entries_export: 5,
  receipt_extraction: null,
};
/** A job that threw is tried again after this pause times its attempts so far (1, 2, 3... minutes). */
export const RETRY_PAUSE_MS = 60_000;
/** The stable code of a job that used its attempts; the message carries the last cause. */
export const ATTEMPTS_EXHAUSTED = 'attempts_exhausted';

export function emptyCounts(): ImportCounts {
  return { read: 0, added: 0, duplicates: 0, rejected: 0, pending: 0 };
}

export interface NewJob {
  organizationId: string;
  kind: BooksJobKind;
  accountId: string | null;
  params: Record<string, unknown>;
  fileName: string | null;
  mediaType: string | null;
  fileBytes: Buffer | null;
  createdBy: string;
  now: string;
}

/**
 * Enqueues a job in the caller's unit of work (it exists exactly when the unit commits) and wakes
 * the books workers after the commit, in every process (decision 385).
 */
export async function enqueueJob(
  unit: Pick<UnitOfWork, 'db' | 'wake'>,
  job: NewJob,
): Promise<{ id: string; state: BooksJobState }> {
  const { db } = unit;
  const id = newId();
  await db
    .insertInto('books_jobs')
    .values({
      id,
      organization_id: job.organizationId,
      kind: job.kind,
      state: 'queued',
      account_id: job.accountId,
      params: dbJson(job.params),
      file_name: job.fileName,
      media_type: job.mediaType,
      file_size: job.fileBytes?.length ?? 0,
      progress: dbJson(emptyCounts()),
      rejected: dbJson([]),
      detection: null,
      error_code: null,
      error_message: null,
      attempts: 0,
      locked_until: null,
      locked_by: null,
      created_by: job.createdBy,
      created_at: job.now,
      started_at: null,
      finished_at: null,
      purge_after: null,
    })
    .execute();
  if (job.fileBytes) {
    await db
      .insertInto('books_job_files')
      .values({ job_id: id, organization_id: job.organizationId })
      .execute();
    await writeFileParts(db, { fileId: id, organizationId: job.organizationId, bytes: job.fileBytes });
  }
  unit.wake('books');
  return { id, state: 'queued' };
}

export interface ClaimedJob {
  id: string;
  organizationId: string;
  kind: BooksJobKind;
  accountId: string | null;
  attempts: number;
}

function claimable(db: Kysely<Database>, kind: BooksJobKind, nowIso: string) {
  return db
    .selectFrom('books_jobs as j')
    .where('j.kind', '=', kind)
    .where((eb) =>
      eb.or([
        eb('j.state', '=', 'queued'),
        eb.and([eb('j.state', '=', 'running'), eb('j.locked_until', '<', nowIso)]),
      ]),
    );
}

/** Claims the oldest claimable job of `kind`, or returns undefined. */
export async function claimJob(
  db: Db,
  kind: BooksJobKind,
  workerId: string,
  now: Date,
  leaseMs = LEASE_MS,
): Promise<ClaimedJob | undefined> {
  const nowIso = now.toISOString();
  // A plain read first: an idle worker never opens a write transaction.
  const any = await claimable(db.kysely, kind, nowIso).select('j.id').limit(1).executeTakeFirst();
  if (!any) return undefined;
  const postgres = db.dialect === 'postgres';
  return db.kysely.transaction().execute(async (trx) => {
    let candidates = claimable(trx, kind, nowIso)
      .select(['j.id', 'j.organization_id', 'j.account_id', 'j.attempts'])
      .orderBy('j.created_at')
      .orderBy('j.id')
      .limit(20);
    if (postgres) candidates = candidates.forUpdate().skipLocked();
    const limit = MAX_ATTEMPTS[kind];
    for (const job of await candidates.execute()) {
      if (limit !== null && job.attempts >= limit) {
        // Its worker died or it threw on every attempt: a terminal state with the last cause, not
        // a lease that lapses forever (a poisoned job must not come back on every run).
        await trx
          .updateTable('books_jobs')
          .set((eb) => ({
            state: 'failed',
            finished_at: nowIso,
            purge_after: new Date(now.getTime() + FAILED_RETENTION_MS).toISOString(),
            locked_until: null,
            locked_by: null,
            error_code: ATTEMPTS_EXHAUSTED,
            error_message: eb.fn.coalesce(
              'error_message',
              eb.val(`the job stopped ${job.attempts} times without finishing`),
            ),
          }))
          .where('id', '=', job.id)
          .where('attempts', '=', job.attempts)
          .execute();
        continue;
      }
      if (kind === 'statement_import' && job.account_id !== null) {
        if (postgres) {
          // Waits for a concurrent claim of the same account to commit, then sees its lease.
          await sql`select id from books_accounts where id = ${job.account_id} for update`.execute(trx);
        }
        const busy = await trx
          .selectFrom('books_jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('account_id', '=', job.account_id)
          .where('state', '=', 'running')
          .where('locked_until', '>=', nowIso)
          .where('id', '!=', job.id)
          .limit(1)
          .executeTakeFirst();
        if (busy) continue;
      }
      const updated = await trx
        .updateTable('books_jobs')
        .set({
          state: 'running',
          attempts: job.attempts + 1,
          locked_by: workerId,
          locked_until: new Date(now.getTime() + leaseMs).toISOString(),
          started_at: nowIso,
        })
        .where('id', '=', job.id)
        .where('attempts', '=', job.attempts)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) continue;
      return {
        id: job.id,
        organizationId: job.organization_id,
        kind,
        accountId: job.account_id,
        attempts: job.attempts + 1,
      };
    }
    return undefined;
  });
}

/**
 * Records progress and extends the lease. Returns false when the lease was lost (another worker
 * took the job over after this one stalled): the caller stops at once.
 */
export async function reportProgress(
  db: Kysely<Database>,
  job: ClaimedJob,
  workerId: string,
  now: Date,
  progress: { counts: ImportCounts; rejected: readonly RejectedLine[]; detection?: unknown },
  leaseMs = LEASE_MS,
): Promise<boolean> {
  const result = await db
    .updateTable('books_jobs')
    .set({
      progress: dbJson(progress.counts),
      rejected: dbJson(progress.rejected),
      ...(progress.detection !== undefined ? { detection: dbJson(progress.detection) } : {}),
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
    })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Failed jobs keep their record (and upload) this long, like finished ones. */
const FAILED_RETENTION_MS = 7 * 86_400_000;

/**
 * A job that threw: records the cause and hands the job back for another attempt after a pause,
 * or, on its last attempt, ends it `failed` with code `attempts_exhausted` and the cause (decision
 * 330). Returns which of the two happened, or undefined when the lease was lost meanwhile.
 */
export async function retryOrFail(
  db: Kysely<Database>,
  job: ClaimedJob,
  workerId: string,
  now: Date,
  cause: string,
): Promise<'retry' | 'failed' | undefined> {
  const limit = MAX_ATTEMPTS[job.kind];
  const last = limit !== null && job.attempts >= limit;
  const message = `attempt ${job.attempts}${limit === null ? '' : ` of ${limit}`}: ${cause}`.slice(0, 500);
  const result = await db
    .updateTable('books_jobs')
    .set(
      last
        ? {
            state: 'failed',
            finished_at: now.toISOString(),
            purge_after: new Date(now.getTime() + FAILED_RETENTION_MS).toISOString(),
            locked_until: null,
            locked_by: null,
            error_code: ATTEMPTS_EXHAUSTED,
            error_message: message,
          }
        : {
            // Stays `running` with a lease that lapses after the pause: the claim takes it again then.
            locked_until: new Date(now.getTime() + RETRY_PAUSE_MS * job.attempts).toISOString(),
            locked_by: null,
            error_message: message,
          },
    )
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  return last ? 'failed' : 'retry';
}

/** Ends a job; the caller's transaction also holds what the job produced and its event. */
export async function finishJob(
  db: Kysely<Database>,
  job: ClaimedJob,
  workerId: string,
  outcome: {
    state: 'succeeded' | 'failed';
    now: string;
    purgeAfter: string;
    counts?: ImportCounts;
    rejected?: readonly RejectedLine[];
    detection?: unknown;
    error?: { code: string; message: string };
    /** Exports: the file written. Imports keep their upload until `purgeAfter`. */
    output?: { fileName: string; mediaType: string; bytes: Buffer };
  },
): Promise<boolean> {
  const result = await db
    .updateTable('books_jobs')
    .set({
      state: outcome.state,
      finished_at: outcome.now,
      purge_after: outcome.purgeAfter,
      locked_until: null,
      locked_by: null,
      error_code: outcome.error?.code ?? null,
      error_message: outcome.error?.message ?? null,
      ...(outcome.counts ? { progress: dbJson(outcome.counts) } : {}),
      ...(outcome.rejected ? { rejected: dbJson(outcome.rejected) } : {}),
      ...(outcome.detection !== undefined ? { detection: dbJson(outcome.detection) } : {}),
      ...(outcome.output
        ? {
            file_name: outcome.output.fileName,
            media_type: outcome.output.mediaType,
            file_size: outcome.output.bytes.length,
          }
        : {}),
    })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('locked_by', '=', workerId)
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  if (outcome.output) {
    await db
      .insertInto('books_job_files')
      .values({ job_id: job.id, organization_id: job.organizationId })
      .execute();
    await writeFileParts(db, {
      fileId: job.id,
      organizationId: job.organizationId,
      bytes: outcome.output.bytes,
    });
  }
  return true;
}

/** The stored file of a job (the statement of an import, the CSV of an export), if still kept. */
export async function readJobFile(db: Kysely<Database>, jobId: string): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('books_job_files')
    .select('organization_id')
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  return row ? readFileParts(db, { fileId: jobId, organizationId: row.organization_id }) : undefined;
}

/** Drops stored files of finished jobs whose retention ended (the job record stays). */
export async function purgeJobFiles(db: Kysely<Database>, now: string): Promise<number> {
  const expired = db
    .selectFrom('books_jobs')
    .select('id')
    .where('state', 'in', ['succeeded', 'failed'])
    .where('purge_after', '<', now);
  const result = await db.deleteFrom('books_job_files').where('job_id', 'in', expired).executeTakeFirst();
  // The same jobs stay expired, so parts left by a crash between the two go on the next run.
  await db.deleteFrom('file_parts').where('file_id', 'in', expired).execute();
  return Number(result.numDeletedRows);
}
