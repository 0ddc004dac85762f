// Webhook delivery metrics, registered once per service instance on its /metrics registry.
import { type RawBuilder, sql } from 'kysely';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { WebhookRuntime } from './runtime.ts';

export interface WebhookMetrics {
  attempts: Counter<'outcome' | 'error_class'>;
  attemptDuration: Histogram<'outcome'>;
  firstAttemptLatency: Histogram;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

const byServices = new WeakMap<WebhookRuntime, WebhookMetrics>();

export function webhookMetrics(services: WebhookRuntime): WebhookMetrics {
  const existing = byServices.get(services);
  if (existing) return existing;
  const registers = [services.metrics.registry];
  const created: WebhookMetrics = {
    attempts: new Counter({
      name: 'accounting_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (success, failure, gone) and error class.',
      labelNames: ['outcome', 'error_class'],
      registers,
    }),
    attemptDuration: new Histogram({
      name: 'accounting_webhook_attempt_duration_seconds',
      help: 'Duration of one delivery attempt (resolution, connection, answer), by outcome.',
      labelNames: ['outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    firstAttemptLatency: new Histogram({
      name: 'accounting_webhook_first_attempt_latency_seconds',
      help: "Time from an event's commit to the start of its first delivery attempt.",
      buckets: LATENCY_BUCKETS,
      registers,
    }),
  };
  // Read at scrape time, so the serve process reports the queue even when only workers deliver.
  new Gauge({
    name: 'accounting_webhook_queue_depth',
    help: 'Pending deliveries that are due now (first attempts and retries), leased or not.',
    labelNames: ['kind'],
    registers,
    async collect() {
      const now = services.clock.now().toISOString();
      // One count per kind, each read from that kind's partial index (migration 0017); the
      // conditions are literals because SQLite matches a partial index only on literal text.
      const due = (kind: RawBuilder<boolean>) =>
        services.db.kysely
          .selectFrom('webhook_deliveries as d')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('d.status', '=', sql.lit('pending'))
          .where(kind)
          .where('d.next_attempt_at', '<=', now);
      const first = Number((await due(sql`d.attempt_count = ${sql.lit(0)}`).executeTakeFirst())?.n ?? 0);
      const retry = Number((await due(sql`d.attempt_count > ${sql.lit(0)}`).executeTakeFirst())?.n ?? 0);
      this.set({ kind: 'first' }, first);
      this.set({ kind: 'retry' }, retry);
    },
  });
  byServices.set(services, created);
  return created;
}
