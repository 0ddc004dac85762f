import { EXPORT_JOB, runEntriesExports } from '../books/export-job.ts';
import { IMPORT_JOB, runStatementImports } from '../books/import-job.ts';
import { purgeJobFiles } from '../books/jobs-queue.ts';
import type { Job } from './runner.ts';

/**
 * The books: statement imports and entry exports claimed from `books_jobs` with a lease (any
 * number of workers), woken at once in the process that queued them; files purged after retention.
 */
export const booksJobs: readonly Job[] = [
  {
    name: IMPORT_JOB,
    intervalMs: 1_000,
    wakeOn: ['books'],
    run: (services) => runStatementImports(services),
  },
  { name: EXPORT_JOB, intervalMs: 1_000, wakeOn: ['books'], run: (services) => runEntriesExports(services) },
  {
    name: 'books.files.purge',
    intervalMs: 60 * 60_000,
    run: (services) => purgeJobFiles(services.db.kysely, services.clock.now().toISOString()),
  },
];
