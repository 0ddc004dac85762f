import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per service instance (tests build many), exposed at /metrics. */
export interface Metrics {
  registry: Registry;
  /** One API request answered: counted and timed through label children kept per label set. */
  recordRequest(operation: string, status: number, seconds: number): void;
  /**
   * One background failure: `run` a job run that threw, `retry` a queued job that failed and will
   * be tried again, `failed` a queued job that used its attempts, `skipped` one row or
   * organization a job set aside so the others go on.
   */
  recordJobFailure(job: string, outcome: JobFailureOutcome): void;
}

export type JobFailureOutcome = 'run' | 'retry' | 'failed' | 'skipped' | 'out_of_range';

interface RequestSeries {
  count: { inc(): void };
  duration: { observe(value: number): void };
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: 'accounting_http_requests_total',
    help: 'API requests by operation and status.',
    labelNames: ['operation', 'status'],
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'accounting_http_request_duration_seconds',
    help: 'API request duration by operation.',
    labelNames: ['operation'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'accounting_job_failures_total',
    help: 'Background job failures by job and outcome (run, retry, failed, skipped, out_of_range).',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  // prom-client validates and hashes a label object on every inc and observe; each request's
  // series are found once per (operation, status) instead. Bounded: operations come from the
  // catalog and statuses are a handful.
  const series = new Map<string, RequestSeries>();
  return {
    registry,
    recordRequest(operation, status, seconds) {
      const key = `${operation} ${status}`;
      let found = series.get(key);
      if (!found) {
        found = {
          count: httpRequests.labels({ operation, status: String(status) }),
          duration: httpDuration.labels({ operation }),
        };
        series.set(key, found);
      }
      found.count.inc();
      found.duration.observe(seconds);
    },
    recordJobFailure(job, outcome) {
      jobFailures.labels({ job, outcome }).inc();
    },
  };
}
