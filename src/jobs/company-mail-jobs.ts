import { purgeExpiredScans, SCAN_PURGE_JOB } from '../company-mail/retention.ts';
import type { Job } from './runner.ts';

/** Company mail's scan retention (organization setting `mail_scan_retention_days`). */
export const companyMailJobs: readonly Job[] = [
  {
    name: SCAN_PURGE_JOB,
    intervalMs: 10 * 60_000,
    run: (services) => purgeExpiredScans(services),
  },
];
