// Operator settings of the delivery worker (docs/webhooks-delivery.md, "Settings"). Defaults fit the
// contract (10 s answer time); tests and benchmarks shorten the lease and the timeout through env.
import { parseDurationMs } from '../../lib/duration.ts';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, type RetrySchedule } from '../retry-schedule.ts';
import type { LocalhostPorts } from '../url-policy.ts';

export interface DeliverySettings {
  /** How long a claim holds a delivery; a worker that dies lets it go after this. > timeoutMs. */
  leaseMs: number;
  /** Deadline of one HTTP attempt, everything included. The contract's answer time: 10 s, never more. */
  timeoutMs: number;
  /**
   * First attempts in flight per worker process (default 64, decision 280: on PostgreSQL the worker
   * waits on round trips, and more attempts in flight make bigger claims and outcome batches).
   * The per-endpoint cap still bounds it: at most endpoints x endpointConcurrency are ever in flight.
   */
  concurrency: number;
  /** Retries in flight per worker process: a separate budget, so first attempts never queue behind them. */
  retryConcurrency: number;
  /** Attempts in flight per endpoint across all workers; at most `endpointConcurrency - 1` of them retries. */
  endpointConcurrency: number;
}

export const CONTRACT_TIMEOUT_MS = 10_000;
/** Time a worker needs around the HTTP call (secret, outcome transaction) before its lease may lapse. */
export const LEASE_MARGIN_MS = 1_000;

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = Object.freeze({
  leaseMs: 60_000,
  timeoutMs: CONTRACT_TIMEOUT_MS,
  concurrency: 64,
  retryConcurrency: 8,
  endpointConcurrency: 2,
});

/**
 * Leases of one endpoint a worker may hold while no other worker holds any: twice what it may send
 * at once, so the endpoint's next attempt starts the moment an answer arrives, not once its outcome
 * is written and the next claim has run (decision 296). The extra deliveries wait in this process
 * for a turn (send-turns.ts), at most one attempt's deadline, so their lease must outlast that wait
 * and their own attempt; with a shorter lease a worker holds only what it sends.
 */
export function endpointHold(settings: DeliverySettings): number {
  const outlasts = settings.leaseMs >= 2 * settings.timeoutMs + LEASE_MARGIN_MS;
  return outlasts ? 2 * settings.endpointConcurrency : settings.endpointConcurrency;
}

export class DeliverySettingsError extends Error {}
type ErrorClass = new (message: string) => Error;

function duration(name: string, text: string, Failure: ErrorClass): number {
  const ms = parseDurationMs(text);
  if (ms === undefined) throw new Failure(`${name}: "${text}" is not a duration like 500ms, 10s or 1m`);
  return ms;
}

function count(name: string, text: string, max: number, Failure: ErrorClass): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1 || value > max)
    throw new Failure(`${name}: "${text}" is not a whole number from 1 to ${max}`);
  return value;
}

/**
 * Reads ACCOUNTING_WEBHOOK_LEASE, _TIMEOUT, _CONCURRENCY, _RETRY_CONCURRENCY, _ENDPOINT_CONCURRENCY.
 * Refuses a timeout above the contract's 10 s and a lease that could lapse
 * while its attempt is still running (which would let a second worker send the same delivery).
 */
export function parseDeliverySettings(
  env: NodeJS.ProcessEnv,
  Failure: ErrorClass = DeliverySettingsError,
): DeliverySettings {
  const d = DEFAULT_DELIVERY_SETTINGS;
  const ms = (key: string, fallback: number): number => {
    const text = env[key];
    return text === undefined || text === '' ? fallback : duration(key, text, Failure);
  };
  const n = (key: string, max: number, fallback: number): number => {
    const text = env[key];
    return text === undefined || text === '' ? fallback : count(key, text, max, Failure);
  };
  const settings: DeliverySettings = {
    leaseMs: ms('ACCOUNTING_WEBHOOK_LEASE', d.leaseMs),
    timeoutMs: ms('ACCOUNTING_WEBHOOK_TIMEOUT', d.timeoutMs),
    concurrency: n('ACCOUNTING_WEBHOOK_CONCURRENCY', 1000, d.concurrency),
    retryConcurrency: n('ACCOUNTING_WEBHOOK_RETRY_CONCURRENCY', 1000, d.retryConcurrency),
    endpointConcurrency: n('ACCOUNTING_WEBHOOK_ENDPOINT_CONCURRENCY', 100, d.endpointConcurrency),
  };
  if (settings.timeoutMs < 1 || settings.timeoutMs > CONTRACT_TIMEOUT_MS)
    throw new Failure('ACCOUNTING_WEBHOOK_TIMEOUT: must be from 1ms to 10s (the contract)');
  if (settings.leaseMs < settings.timeoutMs + LEASE_MARGIN_MS)
    throw new Failure(
      `ACCOUNTING_WEBHOOK_LEASE: must exceed ACCOUNTING_WEBHOOK_TIMEOUT by at least ${LEASE_MARGIN_MS} ms`,
    );
  // Checked here so a bad schedule stops the process at start, not every worker poll later.
  const schedule = env.ACCOUNTING_WEBHOOK_RETRY_SCHEDULE;
  if (schedule) {
    try {
      parseRetrySchedule(schedule);
    } catch (error) {
      throw new Failure(error instanceof Error ? error.message : String(error));
    }
  }
  return settings;
}

const schedules = new Map<string, RetrySchedule>();

/** The schedule in force: ACCOUNTING_WEBHOOK_RETRY_SCHEDULE (config.webhooks.retrySchedule) or the contract's. */
export function retryScheduleOf(text: string | undefined): RetrySchedule {
  if (text === undefined) return DEFAULT_RETRY_SCHEDULE;
  let schedule = schedules.get(text);
  if (!schedule) {
    schedule = parseRetrySchedule(text);
    schedules.set(text, schedule);
  }
  return schedule;
}

/** The webhook settings of src/config.ts (`config.webhooks`), declared here where they are used. */
export interface WebhookSettings {
  allowLocalhostHttp: boolean;
  /** Where allowLocalhostHttp came from, for the start-up log line. */
  allowLocalhostSource: 'ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST' | 'NODE_ENV';
  /** ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: the ports the exception reaches (none unless listed; decision 411). */
  localhostPorts: LocalhostPorts;
  retrySchedule: string | undefined;
  /** ACCOUNTING_SECRET_KEY: seals endpoint signing secrets; unset = instance key in the DB (docs/webhooks.md). */
  secretKey: string | undefined;
  /** The delivery worker: lease, timeout, concurrency budgets (docs/webhooks-delivery.md, "Settings"). */
  delivery: DeliverySettings;
  /** ACCOUNTING_EVENT_RETENTION_DAYS: events, their deliveries and attempts older than this are purged. */
  eventRetentionDays: number;
  /** ACCOUNTING_WEBHOOK_SECRET_OVERLAP: after a rotation, the old secret signs beside the new one this long. */
  secretOverlapMs: number;
}
