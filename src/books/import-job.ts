import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { asJson } from '../db/values.ts';
import { yieldToOthers } from '../lib/yield.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { Deduper } from './dedupe.ts';
import { type ImportWriter, importWriter } from './import-writes.ts';
import {
  type ClaimedJob,
  claimJob,
  emptyCounts,
  finishJob,
  type ImportCounts,
  MAX_REJECTED_KEPT,
  type RejectedLine,
  readJobFile,
  reportProgress,
} from './jobs-queue.ts';
import { type CsvColumnMapping, StatementFileError, type StatementLine } from './statements/types.ts';
import { deleteImported, type NewTransaction } from './transactions.ts';

/** Largest amount stored (18 digits of minor units, as everywhere in the service). */
const MAX_MINOR = 999_999_999_999_999_999n;

export const IMPORT_JOB = 'transactions.import';
/**
 * Lines per batch on PostgreSQL: one dedupe query pair and one insert statement (decision 420),
 * which holds no lock another request needs.
 */
export const IMPORT_BATCH = 1000;
/**
 * Lines per batch on SQLite: each batch holds the one writer (and, better-sqlite3 being
 * synchronous, the serving thread) while it commits, so it is kept to a slice of a few tens of
 * milliseconds; between batches the job yields so others' requests and writes interleave.
 */
export const SQLITE_IMPORT_BATCH = 100;
/**
 * Lines compared with the account at once on SQLite: one read (a few milliseconds) decides 500
 * lines, which are then written in slices of SQLITE_IMPORT_BATCH (decision 423).
 */
export const SQLITE_DEDUPE_BATCH = 500;
/** Parsed lines between two yields to the event loop when no batch is written (rejected, pending lines). */
const YIELD_EVERY_LINES = 200;

/** A job whose worker died this many times is failed instead of tried again (a poison file). */
export const MAX_ATTEMPTS = 3;
/**
 * Longest one import may run, from its (last) start: a file that takes longer fails with
 * `time_limit` and adds nothing (a 20 MiB file, the largest accepted, takes well under a minute).
 */
export const IMPORT_TIME_LIMIT_MS = 10 * 60_000;
/** Uploaded files are kept this long after the job ends, then purged (the job record stays). */
export const IMPORT_FILE_RETENTION_MS = 7 * 86_400_000;

export interface ImportParams {
  cardId: string | null;
  mapping: CsvColumnMapping | null;
  dedupeWindowDays: number;
}

const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/** Runs at most one claimable import; returns 1 when it ran one, 0 when idle. */
export async function runStatementImports(services: UnitRuntime): Promise<number> {
  const job = await claimJob(services.db, 'statement_import', workerId, services.clock.now());
  if (!job) return 0;
  await runImport(services, job);
  return 1;
}

interface AccountInfo {
  id: string;
  kind: string;
  currency: string;
  account_ref: string | null;
}

/** Digits and letters only, uppercase. */
const normalizeRef = (ref: string) => ref.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** A line names another account when both sides are known and disagree. */
function belongsElsewhere(account: AccountInfo, lineRef: string | null): boolean {
  if (!account.account_ref || !lineRef) return false;
  const mine = normalizeRef(account.account_ref);
  const theirs = normalizeRef(lineRef);
  if (mine.length === 4) return !theirs.endsWith(mine);
  return mine !== theirs && !mine.endsWith(theirs) && !theirs.endsWith(mine);
}

async function runImport(services: UnitRuntime, job: ClaimedJob): Promise<void> {
  const db = services.db.kysely;
  const row = await db
    .selectFrom('books_jobs')
    .selectAll()
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow();
  const account = await db
    .selectFrom('books_accounts')
    .select(['id', 'kind', 'currency', 'account_ref'])
    .where('id', '=', row.account_id ?? '')
    .executeTakeFirstOrThrow();
  const params = asJson<ImportParams>(row.params);
  const cards = await db
    .selectFrom('books_cards')
    .select(['id', 'last_four'])
    .where('account_id', '=', account.id)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .execute();
  const cardByLastFour = new Map<string, string>();
  for (const card of cards)
    if (!cardByLastFour.has(card.last_four)) cardByLastFour.set(card.last_four, card.id);

  // A restarted job (its worker died) first removes what the earlier attempt added.
  if (job.attempts > 1) await deleteImported(db, job.id);

  const counts: ImportCounts = emptyCounts();
  const rejected: RejectedLine[] = [];
  const reject = (line: number, reason: string) => {
    counts.rejected += 1;
    if (rejected.length < MAX_REJECTED_KEPT) rejected.push({ line, reason });
  };
  const deduper = new Deduper(db, account.id, job.id, params.dedupeWindowDays);
  let detection: unknown;
  let batch: StatementLine[] = [];
  // Lines read per dedupe (one read of the account for them all), and written per transaction.
  const batchSize = services.db.dialect === 'sqlite' ? SQLITE_DEDUPE_BATCH : IMPORT_BATCH;
  const writeSlice = services.db.dialect === 'sqlite' ? SQLITE_IMPORT_BATCH : IMPORT_BATCH;
  // Made at the first batch, outside its transaction (it may create the chart in its own).
  let writer: Promise<ImportWriter> | undefined;

  const flush = async (): Promise<boolean> => {
    const lines = batch;
    batch = [];
    const duplicate = await deduper.duplicates(lines);
    const fresh: NewTransaction[] = [];
    lines.forEach((line, index) => {
      if (duplicate[index]) {
        counts.duplicates += 1;
        return;
      }
      fresh.push(
        toNewTransaction(
          line,
          account.id,
          job.id,
          line.cardLastFour ? (cardByLastFour.get(line.cardLastFour) ?? null) : params.cardId,
        ),
      );
    });
    writer ??= importWriter(db, services.db.dialect, job.organizationId, services.clock.now().toISOString());
    const write = await writer;
    // The fresh lines go in slices, each in its own short transaction with the progress, the
    // event loop free in between; a batch of duplicates only reports its progress.
    for (let start = 0; start === 0 || start < fresh.length; start += writeSlice) {
      const slice = fresh.slice(start, start + writeSlice);
      const now = services.clock.now();
      const progress = { counts: { ...counts, added: counts.added + slice.length }, rejected, detection };
      // The lease is checked and extended in the transaction that inserts: a worker that lost its
      // job (stalled past the lease) adds nothing after the new owner cleared the earlier attempt.
      const owned = await db.transaction().execute(async (trx) => {
        if (!(await reportProgress(trx, job, workerId, now, progress))) return false;
        await write.write(trx, slice, now.toISOString());
        return true;
      });
      if (!owned) return false;
      counts.added += slice.length;
      await yieldToOthers();
    }
    return true;
  };

  // What the reader detected is reported on a failed job too (known before any line is read).
  let parsing: { detection: unknown } | undefined;
  try {
    if (job.attempts > MAX_ATTEMPTS) {
      throw new StatementFileError(
        'malformed_file',
        `The import stopped its worker ${MAX_ATTEMPTS} times; it is not tried again.`,
      );
    }
    const bytes = await readJobFile(db, job.id);
    if (!bytes) throw new StatementFileError('empty_file', 'The file is no longer stored.');
    // The file is read in a sandbox child (statements/sandboxed.ts): a hostile file costs the
    // child its memory and time, never this process's.
    const { parseStatementSandboxed } = await import('./statements/sandboxed.ts');
    const parse = parseStatementSandboxed({
      bytes,
      fileName: row.file_name ?? '',
      mediaType: row.media_type ?? '',
      ...(params.mapping ? { mapping: params.mapping } : {}),
      accountCurrency: account.currency,
      accountKind: account.kind as 'checking',
    });
    parsing = parse;
    detection = parse.detection;
    const deadline = services.clock.now().getTime() + IMPORT_TIME_LIMIT_MS;
    for await (const item of parse.items) {
      detection = parse.detection;
      counts.read += 1;
      if (counts.read % YIELD_EVERY_LINES === 0 && services.clock.now().getTime() > deadline) {
        throw new StatementFileError(
          'time_limit',
          `The import ran longer than its limit of ${IMPORT_TIME_LIMIT_MS / 60_000} minutes; split the file into smaller statements.`,
        );
      }
      if (counts.read % YIELD_EVERY_LINES === 0) await yieldToOthers();
      if (item.kind === 'rejected') {
        reject(item.lineNumber, item.reason);
        continue;
      }
      const line = item.line;
      const problem = lineProblem(line, account);
      if (problem) {
        reject(line.lineNumber, problem);
        continue;
      }
      if (line.pending) {
        counts.pending += 1;
        continue;
      }
      batch.push(line);
      if (batch.length >= batchSize && !(await flush())) return; // lease lost: another worker has it
    }
    if (batch.length > 0 && !(await flush())) return;
    detection = parse.detection;
    // Reading none of N lines is a wrong file or a wrong mapping, not a success with 0 added.
    if (counts.read > 0 && counts.rejected === counts.read) {
      const first = rejected.slice(0, 3).map((r) => `line ${r.line}: ${r.reason}`);
      throw new StatementFileError(
        'malformed_file',
        `none of the ${counts.read} lines could be read (${first.join('; ')}); check the file and the column mapping`,
      );
    }
    await finish(services, job, account.id, { state: 'succeeded', counts, rejected, detection });
    await refreshStatistics(services, counts.added);
  } catch (error) {
    detection = parsing?.detection ?? detection;
    const fileError =
      error instanceof StatementFileError
        ? { code: error.code, message: error.message }
        : error instanceof RangeError && /string length|buffer/i.test(error.message)
          ? { code: 'malformed_file', message: 'The file could not be read.' }
          : undefined;
    if (!fileError) services.logger.error({ err: error, job: IMPORT_JOB, importId: job.id }, 'import failed');
    // All or nothing: what earlier batches added goes again.
    await deleteImported(db, job.id);
    await finish(services, job, account.id, {
      state: 'failed',
      counts: { ...counts, added: 0 },
      rejected,
      detection,
      error: fileError ?? { code: 'internal_error', message: 'The import stopped on an unexpected error.' },
    });
  }
}

/** Lines added by one import above which PostgreSQL's statistics are refreshed at its end. */
const ANALYZE_AFTER_LINES = 5_000;

/**
 * A large import changes bank_transactions faster than autovacuum re-reads it: until then the
 * planner takes the account's rows for a handful and the next import's dedupe reads (amount and
 * date, reference) scan the table (a 100,000-line re-import took 52 s instead of 6 s).
 * Refreshing the statistics right away costs a sample of the table, once.
 */
async function refreshStatistics(services: UnitRuntime, added: number): Promise<void> {
  if (services.db.dialect !== 'postgres' || added < ANALYZE_AFTER_LINES) return;
  await sql`analyze bank_transactions`.execute(services.db.kysely).catch((error: unknown) => {
    services.logger.warn({ err: error }, 'analyze after a large import failed');
  });
}

function lineProblem(line: StatementLine, account: AccountInfo): string | undefined {
  if (line.amountMinor > MAX_MINOR || line.amountMinor < -MAX_MINOR) return 'The amount is out of range.';
  if (line.currency !== account.currency) {
    return `The line is in ${line.currency}, the account in ${account.currency}.`;
  }
  if (belongsElsewhere(account, line.accountRef)) return `The line belongs to account ${line.accountRef}.`;
  return undefined;
}

function toNewTransaction(
  line: StatementLine,
  accountId: string,
  importId: string,
  cardId: string | null,
): NewTransaction {
  return {
    accountId,
    cardId,
    bookedDate: line.bookedDate,
    valueDate: line.valueDate,
    amountMinor: line.amountMinor,
    currency: line.currency,
    originalAmountMinor: line.originalAmountMinor,
    originalCurrency: line.originalCurrency,
    feesMinor: line.feesMinor,
    description: line.description,
    counterpartyName: line.counterpartyName,
    counterpartyIban: line.counterpartyIban,
    bankReference: line.bankReference,
    note: null,
    categoryHint: null,
    source: 'import',
    importId,
    lineNumber: line.lineNumber,
  };
}

/** The job's end and its event commit together (as the system actor). */
async function finish(
  services: UnitRuntime,
  job: ClaimedJob,
  accountId: string,
  outcome: {
    state: 'succeeded' | 'failed';
    counts: ImportCounts;
    rejected: RejectedLine[];
    detection: unknown;
    error?: { code: string; message: string };
  },
): Promise<void> {
  await withUnit(
    services,
    { organizationId: job.organizationId, actor: { type: 'job', job: IMPORT_JOB }, operation: IMPORT_JOB },
    async (unit) => {
      const trx = unit.db;
      const now = services.clock.now();
      const finished = await finishJob(trx, job, workerId, {
        ...outcome,
        now: now.toISOString(),
        purgeAfter: new Date(now.getTime() + IMPORT_FILE_RETENTION_MS).toISOString(),
      });
      if (!finished) return;
      await unit.emit({
        type: outcome.state === 'succeeded' ? 'transactions.import.completed' : 'transactions.import.failed',
        subject: { type: 'statement_import', id: job.id },
        data: {
          accountId,
          read: outcome.counts.read,
          added: outcome.counts.added,
          duplicates: outcome.counts.duplicates,
          rejected: outcome.counts.rejected,
          pending: outcome.counts.pending,
          ...(outcome.error ? { errorCode: outcome.error.code, errorMessage: outcome.error.message } : {}),
        },
      });
    },
  );
}
