import type { Registry } from 'prom-client';
import type { UnitRuntime } from '../../unit/unit-of-work.ts';
import type { WebhookSettings } from './settings.ts';

/**
 * What the delivery worker needs from the process: the unit-of-work runtime, its settings and the
 * metrics registry. The composition root (src/services.ts) satisfies it; it is also the identity
 * the per-process pool, key cache and metrics are kept under.
 */
export type WebhookRuntime = UnitRuntime & {
  config: { webhooks: WebhookSettings };
  metrics: { registry: Registry };
};
