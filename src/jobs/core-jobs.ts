import { purgeOldMail } from '../mail/retention.ts';
import { purgeExpiredIdempotencyKeys } from '../operations/idempotency.ts';
import { purgeExpiredEvents } from '../webhooks/retention.ts';
import type { Job } from './runner.ts';

export const mailDispatchJob: Job = {
  name: 'mail.dispatch',
  intervalMs: 5_000,
  run: (services) => services.mail.dispatchPending(),
};

export const idempotencyPurgeJob: Job = {
  name: 'idempotency.purge',
  intervalMs: 10 * 60_000,
  // Purging is housekeeping, not progress: report 0 so the loop sleeps between runs.
  run: async (services) => {
    await purgeExpiredIdempotencyKeys(services.db.kysely, services.clock.now());
    return 0;
  },
};

export const eventPurgeJob: Job = {
  name: 'events.purge',
  intervalMs: 10 * 60_000,
  // The count deleted: while a backlog remains the loop comes straight back, in short transactions.
  run: (services) =>
    purgeExpiredEvents(services.db, services.clock.now(), services.config.webhooks.eventRetentionDays),
};

export const mailPurgeJob: Job = {
  name: 'mail.purge',
  intervalMs: 10 * 60_000,
  run: (services) =>
    purgeOldMail(services.db.kysely, services.clock.now(), services.config.mailRetentionDays),
};
