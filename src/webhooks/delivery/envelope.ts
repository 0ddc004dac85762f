// The body and headers of one delivery attempt (contract, Events and "Webhook event envelope").
import type { EventEnvelope } from '../../events/envelope.ts';
import { SIGNATURE_HEADER, signPayload } from '../signature.ts';

export const USER_AGENT = 'Service-Webhooks/1.0';

/**
 * The exact bytes sent. The event row never changes and this is a pure function of it (fixed
 * envelope key order, `data` as the database returns it: PostgreSQL's jsonb order or SQLite's
 * stored text), so every attempt of every endpoint carries the same body for one event.
 */
export function serializeEnvelope(envelope: EventEnvelope): string {
  const { id, type, created, organizationId, subject, data } = envelope;
  return JSON.stringify({ id, type, created, organizationId, subject, data });
}

export interface AttemptHeaderInput {
  body: string;
  /**
   * The endpoint's current plaintext secret, read at attempt time, then the previous one during
   * a rotation overlap: one `v1=` entry each, the current first.
   */
  secret: string | readonly string[];
  /** Unix seconds of this attempt: the signature's `t`. */
  timestamp: number;
  eventId: string;
  eventType: string;
  deliveryId: string;
  attemptNumber: number;
}

/** Exactly the contract's seven headers; the HTTP client adds Host and Content-Length. */
export function attemptHeaders(input: AttemptHeaderInput): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    [SIGNATURE_HEADER]: signPayload(input.secret, input.timestamp, input.body),
    'Service-Event-Id': input.eventId,
    'Service-Event-Type': input.eventType,
    'Service-Delivery-Id': input.deliveryId,
    'Service-Delivery-Attempt': String(input.attemptNumber),
  };
}
