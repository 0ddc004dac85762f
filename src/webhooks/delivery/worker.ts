// The delivery pool of one process: claims due deliveries into two budgets (first attempts and
// retries) and keeps up to that many attempts in flight. State that must survive lives in the
// database (leases); this only tracks what this process is doing right now.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { closeDeliveryPools } from '../connection-pool.ts';
import { delayBeforeAttempt, type RetrySchedule } from '../retry-schedule.ts';
import { type AttemptDeps, ClaimScope, loadAttemptContexts, performAttempt } from './attempt.ts';
import { webhookMetrics } from './metrics.ts';
import { type Outcome, recordOutcomes } from './outcome.ts';
import { OutcomeBatcher } from './outcome-batch.ts';
import { failAbandoned } from './queue/abandoned.ts';
import { claimDeliveries } from './queue/claim.ts';
import type { ClaimKind } from './queue/claimable.ts';
import type { WebhookRuntime } from './runtime.ts';
import { SendTurns } from './send-turns.ts';
import { endpointHold, retryScheduleOf } from './settings.ts';

interface Pool {
  deps: AttemptDeps;
  /** Turns to send per endpoint (send-turns.ts): this process sends at most endpointConcurrency each. */
  turns: SendTurns;
  schedule: RetrySchedule;
  inFlight: Set<Promise<void>>;
  /** Slots taken per budget, counted before the claim's await so concurrent runs never overfill. */
  busy: Record<ClaimKind, number>;
  finished: number;
  lastSweep: number;
  /**
   * performance.now() before which a busy pool does not look for retries again, after a look that
   * found none (see deliverDue). 0 = look now.
   */
  quietRetriesUntil: number;
  /** Slots taken per budget right after its last claim: what the due work and the endpoint caps let it hold. */
  held: Record<ClaimKind, number>;
  /** The last wait ended because an attempt finished (not a poll or a nudge). */
  wokeByFinish: boolean;
}

const SWEEP_INTERVAL_MS = 1_000;
/**
 * While attempts are in flight, the pool looks for newly due deliveries at least this often (and at
 * once on an after-commit nudge): a slow receiver holding a slot for up to 10 s must not hold back
 * deliveries to anyone else. The same interval as the idle poll of the delivery job.
 */
const BUSY_POLL_MS = 100;

const pools = new WeakMap<WebhookRuntime, Pool>();

function poolFor(services: WebhookRuntime): Pool {
  const existing = pools.get(services);
  if (existing) return existing;
  const schedule = retryScheduleOf(services.config.webhooks.retrySchedule);
  const deps: AttemptDeps = {
    services,
    settings: services.config.webhooks.delivery,
    workerId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    delayBefore: (attemptNumber) => delayBeforeAttempt(schedule, attemptNumber),
    record: (outcome) => outcomes.add(outcome),
    sendTurn: (endpointId) => turns.take(endpointId),
  };
  // This process sends at most endpointConcurrency requests per endpoint, whatever it holds.
  const turns = new SendTurns(services.config.webhooks.delivery.endpointConcurrency);
  // Outcomes of attempts that finish close together are written in one transaction.
  const outcomes: OutcomeBatcher<Outcome> = new OutcomeBatcher<Outcome>(
    (batch) => recordOutcomes(deps, batch),
    {
      // Attempts waiting for a turn to send will not finish soon: they are not waited for.
      running: (): number => pool.inFlight.size - outcomes.waiting - turns.waiting,
    },
  );
  const pool: Pool = {
    deps,
    turns,
    schedule,
    inFlight: new Set(),
    busy: { first: 0, retry: 0 },
    finished: 0,
    lastSweep: Number.NEGATIVE_INFINITY,
    quietRetriesUntil: 0,
    held: { first: 0, retry: 0 },
    wokeByFinish: false,
  };
  // A commit here (or a NOTIFY from another process: a recover, a retry now) may have made
  // retries due; the next step looks at once.
  services.wakeups.on('events', () => {
    pool.quietRetriesUntil = 0;
  });
  webhookMetrics(services);
  pools.set(services, pool);
  return pool;
}

async function claimInto(pool: Pool, kind: ClaimKind, budget: number): Promise<number> {
  const free = budget - pool.busy[kind];
  // Claims come in batches: a claim transaction for every single freed slot costs more than the
  // attempt itself when receivers answer fast. An idle budget always claims at once.
  // When the endpoint caps hold the pool below its budget (20 endpoints x 2 < 64), the budget's
  // quarter is always free; a finished attempt then claims again only once a quarter of what the
  // last claim could hold has finished, so claims stay batches. A poll or a nudge claims whatever
  // is free (new work, a slow receiver holding its slots).
  const batch = Math.max(1, Math.ceil((pool.wokeByFinish ? Math.min(budget, pool.held[kind]) : budget) / 4));
  const freed = pool.wokeByFinish ? pool.held[kind] - pool.busy[kind] : free;
  if (free <= 0 || (pool.busy[kind] > 0 && (free < Math.ceil(budget / 4) || freed < batch))) return 0;
  const { services, settings, workerId } = pool.deps;
  pool.busy[kind] += free;
  let claimed: Awaited<ReturnType<typeof claimDeliveries>> = [];
  try {
    claimed = await claimDeliveries(services.db, {
      now: services.clock.now(),
      workerId,
      leaseMs: settings.leaseMs,
      limit: free,
      kind,
      endpointConcurrency: settings.endpointConcurrency,
      endpointHold: endpointHold(settings),
      maxAttempts: pool.schedule.length,
    });
  } finally {
    pool.busy[kind] -= free - claimed.length;
    pool.held[kind] = pool.busy[kind];
  }
  // The events and endpoints of the whole claim in one read; a failed read gives the claim back
  // to the lease (the deliveries are attempted again once it lapses).
  let contexts: Awaited<ReturnType<typeof loadAttemptContexts>> | undefined;
  try {
    contexts = await loadAttemptContexts(services, claimed);
  } catch (error) {
    pool.busy[kind] -= claimed.length;
    throw error;
  }
  const scope = new ClaimScope();
  for (const delivery of claimed) {
    const running: Promise<void> = performAttempt(pool.deps, delivery, contexts.get(delivery.id), scope)
      .catch((error: unknown) => {
        // A database error mid-outcome: the lease lapses and the delivery is claimed again.
        services.logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed to record');
      })
      .finally(() => {
        pool.busy[kind] -= 1;
        pool.finished += 1;
        pool.inFlight.delete(running);
      });
    pool.inFlight.add(running);
  }
  return claimed.length;
}

/**
 * One step of the delivery job: fills both budgets with due deliveries, then waits until an
 * attempt in flight finishes, a new event is committed in this process, or BUSY_POLL_MS passes.
 * Returns a positive number while anything was started, finished or is still in flight (0 = idle:
 * nothing due and nothing in flight), so the job loop comes back at once while there is work and
 * `runJobs` in tests drains the queue at the current clock.
 */
export async function deliverDue(services: WebhookRuntime): Promise<number> {
  const pool = poolFor(services);
  const { settings } = pool.deps;
  // Counted from the start: an attempt recording its outcome holds its endpoint's row, which makes
  // a concurrent claim skip that endpoint; the attempt finishing is the signal to look again.
  const before = pool.finished;
  // Abandoned last attempts are rare (a worker died during attempt 8): look once a second at most.
  if (performance.now() - pool.lastSweep >= SWEEP_INTERVAL_MS) {
    pool.lastSweep = performance.now();
    await failAbandoned(services.db, services.clock.now(), pool.schedule.length);
  }
  const first = await claimInto(pool, 'first', settings.concurrency);
  // Retries become due by time passing (their next_attempt_at lies ahead when they are written),
  // so while attempts are in flight a look that found none is not repeated for BUSY_POLL_MS: the
  // loop comes back after every finished attempt, and an empty retry read each time was about a
  // tenth of a busy worker's CPU. An idle pool always looks (`runJobs` drains at the current clock).
  let retries = 0;
  if (pool.inFlight.size === 0 || pool.busy.retry > 0 || performance.now() >= pool.quietRetriesUntil) {
    const looked = pool.busy.retry === 0;
    retries = await claimInto(pool, 'retry', settings.retryConcurrency);
    if (looked && retries === 0) pool.quietRetriesUntil = performance.now() + BUSY_POLL_MS;
  }
  const started = first + retries;
  if (pool.inFlight.size === 0) return started + (pool.finished - before);
  pool.wokeByFinish = await untilProgressOrPoll(services, pool);
  // Attempts still in flight count as work, so the job loop (and `runJobs`) comes straight back.
  return Math.max(1, started + (pool.finished - before));
}

/**
 * Resolves when an attempt in flight finishes (true), an event is committed here, or BUSY_POLL_MS
 * passes (false).
 */
async function untilProgressOrPoll(services: WebhookRuntime, pool: Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let woken = false;
  const poll = new Promise<void>((resolve) => {
    const wake = () => {
      woken = true;
      resolve();
    };
    timer = setTimeout(wake, BUSY_POLL_MS);
    unsubscribe = services.wakeups.on('events', wake);
  });
  try {
    await Promise.race([...pool.inFlight, poll]);
    return !woken;
  } finally {
    clearTimeout(timer);
    unsubscribe?.();
  }
}

/** Waits for every attempt this process has in flight (graceful shutdown). */
export async function drainDeliveries(services: WebhookRuntime): Promise<void> {
  const pool = pools.get(services);
  // Held deliveries still waiting for a turn go back unsent; only what is being sent is waited for.
  pool?.turns.cancelWaiting();
  while (pool && pool.inFlight.size > 0) await Promise.allSettled([...pool.inFlight]);
  // Kept-alive connections to receivers end with the process's deliveries.
  await closeDeliveryPools();
}
