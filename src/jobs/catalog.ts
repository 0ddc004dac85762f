import { idempotencyPurgeJob, mailDispatchJob } from './core-jobs.ts';
import type { Job } from './runner.ts';

/** Every background job; `serve` and `worker` both run this list. */
export const JOBS: readonly Job[] = [mailDispatchJob, idempotencyPurgeJob];
