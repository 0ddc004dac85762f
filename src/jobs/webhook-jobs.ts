import { deliverDue } from '../webhooks/delivery/worker.ts';
import type { Job } from './runner.ts';

/**
 * Webhook delivery: claims due deliveries (first attempts and retries, each with its own budget),
 * sends them and records the outcomes, auto-disable included (src/webhooks/delivery/). An idle
 * worker looks at the queue every 100 ms (two indexed reads, no write lock); while there is work
 * it keeps going without a pause.
 */
export const webhookDeliveryJob: Job = {
  name: 'webhooks.deliver',
  // New events are delivered at once when this process committed them.
  wakeOn: ['events'],
  intervalMs: 100,
  run: deliverDue,
};

export const webhookJobs: readonly Job[] = [webhookDeliveryJob];
