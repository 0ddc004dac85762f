import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per service instance (tests build many), exposed at /metrics. */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'operation' | 'status'>;
  httpDuration: Histogram<'operation'>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'accounting_http_requests_total',
      help: 'API requests by operation and status.',
      labelNames: ['operation', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'accounting_http_request_duration_seconds',
      help: 'API request duration by operation.',
      labelNames: ['operation'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}
