// One delivery attempt: read the event and the endpoint as they are now, sign with the endpoint's
// current secret, POST through the SSRF-safe client, then record the outcome.

import { toEnvelope } from '../../events/envelope.ts';
import {
  loadSealingKeys,
  openSecret,
  type SealingKeys,
  SecretUnavailableError,
} from '../endpoint-secrets.ts';
import { type DeliveryResult, deliver } from '../safe-client.ts';
import { attemptHeaders, serializeEnvelope } from './envelope.ts';
import { webhookMetrics } from './metrics.ts';
import { recordOutcome } from './outcome.ts';
import { type ClaimedDelivery, releaseClaim } from './queue.ts';
import type { WebhookRuntime } from './runtime.ts';
import type { DeliverySettings } from './settings.ts';

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
}

/**
 * Performs the claimed attempt and records it. Never throws for receiver problems; database
 * errors propagate (the lease then lapses and the delivery is claimed again).
 */
export async function performAttempt(deps: AttemptDeps, claimed: ClaimedDelivery): Promise<void> {
  const { services, settings } = deps;
  const db = services.db.kysely;
  // The event and the endpoint as they are now: rotation and turn-off apply to the next attempt.
  const row = await db
    .selectFrom('events as ev')
    .innerJoin('webhook_endpoints as ep', (join) =>
      join.onRef('ep.organization_id', '=', 'ev.organization_id').on('ep.id', '=', claimed.endpointId),
    )
    .select([
      'ev.id',
      'ev.type',
      'ev.organization_id',
      'ev.subject_type',
      'ev.subject_id',
      'ev.data',
      'ev.created_at',
      'ep.url',
      'ep.secret',
      'ep.status as endpoint_status',
    ])
    .where('ev.id', '=', claimed.eventId)
    .where('ev.organization_id', '=', claimed.organizationId)
    .executeTakeFirst();
  if (row?.endpoint_status !== 'active') {
    // Archived or turned off since the claim: nothing is sent and the attempt is not counted.
    await releaseClaim(db, claimed, deps.workerId, { nextAttemptAt: services.clock.now(), error: null });
    return;
  }
  const event = row;
  let secret: string;
  try {
    const keys = await sealingKeys(services);
    secret = openSecret(keys, row.secret, {
      organizationId: claimed.organizationId,
      endpointId: claimed.endpointId,
    });
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
  const envelope = toEnvelope(event);
  const body = serializeEnvelope(envelope);
  const started = services.clock.now();
  const metrics = webhookMetrics(services);
  if (claimed.attemptNumber === 1) {
    const committed = new Date(String(event.created_at)).getTime();
    metrics.firstAttemptLatency.observe(Math.max(0, started.getTime() - committed) / 1000);
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
    { timeoutMs: settings.timeoutMs, allowLocalhostHttp: services.config.webhooks.allowLocalhostHttp },
  );
  metrics.attempts.inc({ outcome: result.outcome, error_class: result.errorClass ?? '' });
  metrics.attemptDuration.observe({ outcome: result.outcome }, result.durationMs / 1000);
  services.logger.debug(
    {
      deliveryId: claimed.id,
      endpointId: claimed.endpointId,
      eventId: envelope.id,
      attempt: claimed.attemptNumber,
      outcome: result.outcome,
      status: result.status,
      errorClass: result.errorClass,
      durationMs: result.durationMs,
    },
    'webhook attempt',
  );
  await recordOutcome(deps, claimed, { result, startedAt: started });
}
