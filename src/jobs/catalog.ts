import { booksJobs } from './books-jobs.ts';
import { eventPurgeJob, idempotencyPurgeJob, mailDispatchJob, mailPurgeJob } from './core-jobs.ts';
import { invoicingJobs } from './invoicing-jobs.ts';
import { receiptsJobs } from './receipts-jobs.ts';
import type { Job } from './runner.ts';
import { webhookJobs } from './webhook-jobs.ts';

/** Every background job; `serve` and `worker` both run this list. */
export const JOBS: readonly Job[] = [
  mailDispatchJob,
  mailPurgeJob,
  idempotencyPurgeJob,
  eventPurgeJob,
  ...webhookJobs,
  ...invoicingJobs,
  ...booksJobs,
  ...receiptsJobs,
];
