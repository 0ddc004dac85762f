import { sendScheduledDrafts } from '../invoicing/invoices/index.ts';
import { remindInvoiceDeadlines } from '../invoicing/schedules/deadlines.ts';
import { NOTICE_JOB, noticeUpcomingRuns } from '../invoicing/schedules/notices.ts';
import { remindInstallments } from '../invoicing/schedules/plan-reminders.ts';
import { PLANS_JOB, sweepPlans } from '../invoicing/schedules/plan-sweep.ts';
import { RUN_JOB, runDueSchedules } from '../invoicing/schedules/run.ts';
import type { Job } from './runner.ts';

/**
 * Invoicing work. Each job keeps its state in the database (compare-and-set on revisions, unique
 * run and notice rows), so several workers can run them side by side; each returns how much it
 * did, and the runner calls it again at once while that is above 0. Order matters within one
 * tick only for freshness: payments are swept before reminders are considered.
 */
export const invoicingJobs: readonly Job[] = [
  { name: 'invoices.send_scheduled', intervalMs: 60_000, run: (services) => sendScheduledDrafts(services) },
  { name: PLANS_JOB, intervalMs: 60_000, run: (services) => sweepPlans(services) },
  { name: RUN_JOB, intervalMs: 60_000, run: (services) => runDueSchedules(services) },
  { name: NOTICE_JOB, intervalMs: 5 * 60_000, run: (services) => noticeUpcomingRuns(services) },
  {
    name: 'invoices.reminders',
    intervalMs: 5 * 60_000,
    run: async (services) => (await remindInstallments(services)) + (await remindInvoiceDeadlines(services)),
  },
];
