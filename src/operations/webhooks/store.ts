import { type Kysely, type Selectable, sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { Database } from '../../db/schema.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/tables/webhooks.ts';
import { asInt, asIso, asIsoOrNull } from '../../db/values.ts';
import { makePendingDueNow } from '../../webhooks/delivery/queue/requeue.ts';
import type { OperationContext } from '../context.ts';

const NullableTimestamp = (description: string) =>
  Type.Union([Timestamp(description), Type.Null()], { description });
const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** One (event, endpoint) pair of the delivery log. */
export const WebhookDelivery = Type.Object(
  {
    id: Id('Delivery id; sent as Service-Delivery-Id.'),
    endpoint_id: Id('Endpoint id.'),
    event_id: Id('Event id; sent as Service-Event-Id.'),
    event_type: Type.String({ description: 'Event type.' }),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')],
      {
        description:
          '`pending` (waiting or being sent), `succeeded` (a 2xx), `failed` (attempts used up, or 410 Gone), `cancelled` (endpoint turned off or archived).',
      },
    ),
    attempt_count: Type.Integer({ minimum: 0, description: 'Attempts started so far.' }),
    next_attempt_at: NullableTimestamp('When the next attempt is due; null unless pending.'),
    last_status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: 'HTTP status of the last answer, or null (no answer).',
    }),
    last_error: NullableString('Why the last attempt failed (or why the delivery stopped), or null.'),
    created_at: Timestamp('When the event was fanned out to the endpoint.'),
    updated_at: Timestamp('Last change.'),
    completed_at: NullableTimestamp(
      'When it succeeded, failed for good or was cancelled; null while pending.',
    ),
  },
  { title: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** One HTTP try of a delivery. */
export const WebhookAttempt = Type.Object(
  {
    id: Id('Attempt id.'),
    attempt_number: Type.Integer({ minimum: 1, description: 'Sent as Service-Delivery-Attempt.' }),
    started_at: Timestamp('When the request started.'),
    duration_ms: Type.Integer({ minimum: 0, description: 'Until the answer was read, or the failure.' }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, or null.' }),
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')], {
      description:
        '`success` (a 2xx answer) or `failure` (anything else, 410 Gone included; see error_class).',
    }),
    error_class: NullableString(
      'timeout, connection_refused, connection_error, dns_error, unsafe_address, redirect, http_status, tls_error or gone; null on success.',
    ),
    error_message: NullableString('Short diagnostic of a failure, or null.'),
    response_excerpt: Type.String({
      description:
        'The first 1024 characters of the answer body; always empty for an http://localhost endpoint (a local answer is not kept).',
    }),
  },
  { title: 'WebhookAttempt', additionalProperties: false },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const WebhookDeliveryWithAttempts = Type.Object(
  {
    ...WebhookDelivery.properties,
    attempts: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first.' }),
  },
  { title: 'WebhookDeliveryWithAttempts', additionalProperties: false },
);

export type DeliveryRow = Selectable<WebhookDeliveriesTable> & { event_type: string };

/** Deliveries of the caller's organization with their event type. */
export function selectDeliveries(db: Kysely<Database>, organizationId: string) {
  // The event type as a scalar subquery, not a join: with table statistics (ANALYZE) SQLite chose
  // to scan events and sort every delivery, so the newest page cost O(rows) (bench/scale.ts).
  // Every delivery has its event (foreign key), of the same organization.
  return db
    .selectFrom('webhook_deliveries as d')
    .selectAll('d')
    .select(sql<string>`(select e.type from events e where e.id = d.event_id)`.as('event_type'))
    .where('d.organization_id', '=', organizationId);
}

function asStatus(value: string): WebhookDelivery['status'] {
  if (value === 'pending' || value === 'succeeded' || value === 'failed' || value === 'cancelled')
    return value;
  throw new Error(`unknown webhook delivery status ${value}`);
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  const status = asStatus(row.status);
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status,
    attempt_count: asInt(row.attempt_count),
    next_attempt_at: status === 'pending' ? asIso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code === null ? null : asInt(row.last_status_code),
    last_error: row.last_error,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
    completed_at: asIsoOrNull(row.completed_at),
  };
}

export function toAttempt(row: Selectable<WebhookAttemptsTable>): WebhookAttempt {
  return {
    id: row.id,
    attempt_number: asInt(row.attempt_number),
    started_at: asIso(row.started_at),
    duration_ms: asInt(row.duration_ms),
    status_code: row.status_code === null ? null : asInt(row.status_code),
    outcome: row.outcome === 'success' ? 'success' : 'failure',
    error_class: row.error_class,
    error_message: row.error_message,
    response_excerpt: row.response_excerpt ?? '',
  };
}

/**
 * "Retry now" on a delivery waiting for its next attempt: it becomes due at once, keeping its
 * attempt count and limit. One in flight (leased) is left alone: its attempt is under way.
 */
export async function retryPendingNow(ctx: OperationContext, row: DeliveryRow): Promise<WebhookDelivery> {
  const endpoint = await ctx.db
    .selectFrom('webhook_endpoints')
    .select('status')
    .where('id', '=', row.endpoint_id)
    .where('organization_id', '=', ctx.organizationId)
    .executeTakeFirstOrThrow();
  if (endpoint.status !== 'active') {
    throw new AppError(
      'invalid_state',
      `The endpoint is ${endpoint.status}; turn it back on before retrying.`,
      {
        details: { state: row.status, endpoint_status: endpoint.status },
      },
    );
  }
  const now = ctx.clock.now().toISOString();
  const moved = await makePendingDueNow(ctx, row.id, now);
  if (!moved) {
    throw new AppError(
      'invalid_state',
      'An attempt of this delivery is in flight; its outcome comes shortly.',
      {
        details: { state: 'pending', in_flight: true },
      },
    );
  }
  await ctx.audit({
    recordType: 'webhook_delivery',
    recordId: row.id,
    beforeRevision: null,
    afterRevision: null,
  });
  ctx.wake('events');
  return toDelivery({ ...row, next_attempt_at: now, updated_at: now });
}
