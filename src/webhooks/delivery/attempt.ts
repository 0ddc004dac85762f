// One delivery attempt: the event and the endpoint as read right after the claim, signed with the
// endpoint's current secret, POSTed through the SSRF-safe client; the outcome is then handed in.

import { type EventEnvelope, toEnvelope } from '../../events/envelope.ts';
import {
  loadSealingKeys,
  openSecret,
  type SealingKeys,
  SecretUnavailableError,
} from '../endpoint-secrets.ts';
import { type DeliveryResult, deliver } from '../safe-client.ts';
import { attemptHeaders, serializeEnvelope } from './envelope.ts';
import { webhookMetrics } from './metrics.ts';
import type { Outcome } from './outcome.ts';
import type { ClaimedDelivery } from './queue/claimable.ts';
import { releaseClaim, renewLease } from './queue/lease.ts';
import type { WebhookRuntime } from './runtime.ts';
import type { SendTurn } from './send-turns.ts';
import { type DeliverySettings, LEASE_MARGIN_MS } from './settings.ts';

/**
 * A held delivery (settings.ts endpointHold) whose turn comes later than this after its claim reads
 * its event and endpoint again, so turning an endpoint off or rotating its secret reaches it as
 * quickly as it reaches a new claim (the delivery loop looks at least every 100 ms too).
 */
const HELD_READING_MS = 100;

/** How long a delivery whose secret cannot be opened waits before the next look (operator fix). */
const SECRET_UNAVAILABLE_BACKOFF_MS = 5 * 60_000;

const keyCache = new WeakMap<WebhookRuntime, Promise<SealingKeys>>();

/**
 * The sealing keys, read once per process: the instance key never changes and the operator key
 * comes from the environment. A failed read is not cached, so a fixed setup recovers.
 */
function sealingKeys(services: WebhookRuntime): Promise<SealingKeys> {
  const cached = keyCache.get(services);
  if (cached) return cached;
  const keys = loadSealingKeys(services.db.kysely, services.config.webhooks.secretKey);
  keys.catch(() => keyCache.delete(services));
  keyCache.set(services, keys);
  return keys;
}

export interface AttemptDeps {
  services: WebhookRuntime;
  settings: DeliverySettings;
  workerId: string;
  /** Milliseconds before attempt n (1-based), undefined past the schedule's end. */
  delayBefore(attemptNumber: number): number | undefined;
  /** Writes a finished attempt's outcome (in a batch: outcome-batch.ts); resolves once committed. */
  record(outcome: Outcome): Promise<void>;
  /** Waits for a turn to send to the endpoint (send-turns.ts). Absent: every attempt sends at once. */
  sendTurn?(endpointId: string): Promise<SendTurn>;
}

function contextQuery(services: WebhookRuntime, deliveryIds: readonly string[]) {
  return services.db.kysely
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as ev', (join) =>
      join.onRef('ev.id', '=', 'd.event_id').onRef('ev.organization_id', '=', 'd.organization_id'),
    )
    .innerJoin('webhook_endpoints as ep', (join) =>
      join.onRef('ep.id', '=', 'd.endpoint_id').onRef('ep.organization_id', '=', 'd.organization_id'),
    )
    .select([
      'd.id as delivery_id',
      'ev.id',
      'ev.type',
      'ev.organization_id',
      'ev.subject_type',
      'ev.subject_id',
      'ev.data',
      'ev.created_at',
      'ep.url',
      'ep.secret',
      'ep.previous_secret',
      'ep.previous_secret_until',
      'ep.status as endpoint_status',
    ])
    .where('d.id', 'in', deliveryIds);
}

/** A claimed delivery's event and endpoint as they are now. */
export type AttemptContext = Awaited<ReturnType<ReturnType<typeof contextQuery>['execute']>>[number];

/**
 * The events and endpoints of claimed deliveries, read in one query for a whole claim, right after
 * it (rotation and turn-off apply from the next claim on). Keyed by delivery id; a delivery whose
 * event or endpoint is gone has no entry.
 */
export async function loadAttemptContexts(
  services: WebhookRuntime,
  claimed: readonly ClaimedDelivery[],
): Promise<Map<string, AttemptContext>> {
  if (claimed.length === 0) return new Map();
  // Read with the claim (PostgreSQL): nothing more to read.
  if (claimed.every((delivery) => delivery.context !== undefined)) {
    return new Map(
      claimed.flatMap((delivery) => (delivery.context ? [[delivery.id, delivery.context]] : [])),
    );
  }
  const rows = await contextQuery(
    services,
    claimed.map((delivery) => delivery.id),
  ).execute();
  return new Map(rows.map((row) => [row.delivery_id, row]));
}

/**
 * What the attempts of one claim share, worked out once per claim instead of once per attempt:
 * an endpoint's opened secrets (one AES-GCM open per endpoint, not per delivery) and an event's
 * body (one serialization per event, whichever endpoints it goes to). It lives as long as the
 * claim's attempts, read from the one context query of that claim, so rotation and turn-off apply
 * from the next claim on; a held delivery whose turn comes late reads them again (HELD_READING_MS).
 */
export class ClaimScope {
  readonly #readAt = performance.now();
  readonly #secrets = new Map<string, Promise<readonly string[]>>();
  readonly #bodies = new Map<string, { envelope: EventEnvelope; body: string; committedMs: number }>();

  /** Milliseconds since the claim read its events and endpoints. */
  ageMs(): number {
    return performance.now() - this.#readAt;
  }

  /** The endpoint's current secret and, during a rotation overlap, the previous one (it signs too). */
  secretsOf(
    services: WebhookRuntime,
    claimed: ClaimedDelivery,
    row: AttemptContext,
  ): Promise<readonly string[]> {
    // Keyed by what is opened and what it is bound to, so a differing row never shares an entry.
    const key = `${claimed.organizationId}|${claimed.endpointId}|${row.secret}|${row.previous_secret ?? ''}|${row.previous_secret_until ?? ''}`;
    let opened = this.#secrets.get(key);
    if (!opened) {
      opened = openSecrets(services, claimed, row);
      this.#secrets.set(key, opened);
    }
    return opened;
  }

  bodyOf(event: AttemptContext): { envelope: EventEnvelope; body: string; committedMs: number } {
    let made = this.#bodies.get(event.id);
    if (!made) {
      const envelope = toEnvelope(event);
      made = {
        envelope,
        body: serializeEnvelope(envelope),
        committedMs: new Date(String(event.created_at)).getTime(),
      };
      this.#bodies.set(event.id, made);
    }
    return made;
  }
}

async function openSecrets(
  services: WebhookRuntime,
  claimed: ClaimedDelivery,
  row: AttemptContext,
): Promise<readonly string[]> {
  const keys = await sealingKeys(services);
  const binding = { organizationId: claimed.organizationId, endpointId: claimed.endpointId };
  const secret = [openSecret(keys, row.secret, binding)];
  // Rotation overlap: the previous secret signs too (a second v1= entry) until its time is up.
  const until = row.previous_secret_until;
  if (
    row.previous_secret !== null &&
    until !== null &&
    new Date(until).getTime() > services.clock.now().getTime()
  ) {
    secret.push(openSecret(keys, row.previous_secret, binding));
  }
  return secret;
}

/**
 * Performs the claimed attempt and hands its outcome in. Never throws for receiver problems;
 * database errors propagate (the lease then lapses and the delivery is claimed again).
 */
export async function performAttempt(
  deps: AttemptDeps,
  claimed: ClaimedDelivery,
  row: AttemptContext | undefined,
  claim: ClaimScope = new ClaimScope(),
): Promise<void> {
  const { services, settings, workerId } = deps;
  const turn = await deps.sendTurn?.(claimed.endpointId);
  try {
    if (turn?.cancelled) {
      // The process is stopping: the claim goes back unsent and uncounted.
      await releaseClaim(services.db.kysely, claimed, workerId, {
        nextAttemptAt: services.clock.now(),
        error: null,
      });
      return;
    }
    let delivery = claimed;
    let context = row;
    const now = services.clock.now();
    const leaseLeft = Date.parse(claimed.leaseUntil) - now.getTime();
    // A held delivery that waited for its turn after another attempt to its endpoint ended without
    // a success (which may have turned the endpoint off), or longer than its claim's reading may be
    // used, or whose lease would not outlast its attempt, renews its lease, fenced (a cancelled
    // delivery or a lease lost meanwhile is not ours to send), and reads its event and endpoint again.
    if (
      turn?.waited &&
      (turn.stale || claim.ageMs() > HELD_READING_MS || leaseLeft < settings.timeoutMs + LEASE_MARGIN_MS)
    ) {
      const leaseUntil = new Date(now.getTime() + settings.leaseMs);
      if (!(await renewLease(services.db.kysely, claimed, workerId, leaseUntil))) return;
      delivery = { ...claimed, leaseUntil: leaseUntil.toISOString(), context: undefined };
      context = (await loadAttemptContexts(services, [delivery])).get(claimed.id);
    }
    await attemptWithTurn(deps, delivery, context, claim, turn);
  } finally {
    turn?.giveBack();
  }
}

async function attemptWithTurn(
  deps: AttemptDeps,
  claimed: ClaimedDelivery,
  row: AttemptContext | undefined,
  claim: ClaimScope,
  turn: SendTurn | undefined,
): Promise<void> {
  const { services } = deps;
  const db = services.db.kysely;
  if (row?.endpoint_status !== 'active') {
    // Archived or turned off since the claim: nothing is sent and the attempt is not counted.
    await releaseClaim(db, claimed, deps.workerId, { nextAttemptAt: services.clock.now(), error: null });
    return;
  }
  const event = row;
  let secret: readonly string[];
  try {
    secret = await claim.secretsOf(services, claimed, row);
  } catch (error) {
    if (!(error instanceof SecretUnavailableError)) throw error;
    // Our key problem, not the receiver's: no attempt is counted against the endpoint.
    services.logger.error(
      { deliveryId: claimed.id, endpointId: claimed.endpointId, reason: error.message },
      'webhook delivery postponed: the signing secret cannot be opened',
    );
    const nextAttemptAt = new Date(services.clock.now().getTime() + SECRET_UNAVAILABLE_BACKOFF_MS);
    await releaseClaim(db, claimed, deps.workerId, {
      nextAttemptAt,
      error: `secret unavailable: ${error.message}`,
    });
    return;
  }
  const { envelope, body, committedMs } = claim.bodyOf(event);
  await attempt(deps, claimed, row, { envelope, body, committedMs, secret }, turn);
}

/** Sends the signed request, gives the turn back once the answer is in, and hands the outcome in. */
async function attempt(
  deps: AttemptDeps,
  claimed: ClaimedDelivery,
  row: AttemptContext,
  made: { envelope: EventEnvelope; body: string; committedMs: number; secret: readonly string[] },
  turn: SendTurn | undefined,
): Promise<void> {
  const { services, settings } = deps;
  const { envelope, body, committedMs, secret } = made;
  const started = services.clock.now();
  const metrics = webhookMetrics(services);
  if (claimed.attemptNumber === 1) {
    metrics.firstAttemptLatency.observe(Math.max(0, started.getTime() - committedMs) / 1000);
  }
  const headers = attemptHeaders({
    body,
    secret,
    timestamp: Math.floor(started.getTime() / 1000),
    eventId: envelope.id,
    eventType: envelope.type,
    deliveryId: claimed.id,
    attemptNumber: claimed.attemptNumber,
  });
  const result: DeliveryResult = await deliver(
    { url: row.url, headers, body },
    {
      timeoutMs: settings.timeoutMs,
      allowLocalhostHttp: services.config.webhooks.allowLocalhostHttp,
      localhostPorts: services.config.webhooks.localhostPorts,
    },
  );
  // After a success the endpoint's next held delivery may go while this outcome is written; after
  // anything else it waits for the outcome (performAttempt gives the turn back then).
  turn?.answered(result.outcome === 'success');
  metrics.attempts.inc({ outcome: result.outcome, error_class: result.errorClass ?? '' });
  metrics.attemptDuration.observe({ outcome: result.outcome }, result.durationMs / 1000);
  // A failure is the operator's business (warn); the line names the endpoint and the reason, never
  // the secret, the signature or the body (they may hold customer data), nor the URL's path and
  // query (a receiver's token often lives there): its origin is enough to recognise it.
  const failed = result.outcome !== 'success';
  // The line for a success is debug: its object (and the URL parse) is not built when that is off.
  if (failed || services.logger.isLevelEnabled('debug'))
    services.logger[failed ? 'warn' : 'debug'](
      {
        organizationId: claimed.organizationId,
        deliveryId: claimed.id,
        endpointId: claimed.endpointId,
        endpointOrigin: originOf(row.url),
        eventId: envelope.id,
        eventType: envelope.type,
        attempt: claimed.attemptNumber,
        outcome: result.outcome,
        status: result.status,
        errorClass: result.outcome === 'gone' ? 'gone' : result.errorClass,
        ...(failed ? { reason: result.outcome === 'gone' ? 'HTTP 410 Gone' : result.errorMessage } : {}),
        durationMs: result.durationMs,
      },
      failed ? 'webhook delivery attempt failed' : 'webhook attempt',
    );
  await deps.record({ claimed, result, startedAt: started });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}
