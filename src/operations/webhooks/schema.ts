import { type Static, Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import { asBool, asIso, asIsoOrNull, asJson } from '../../db/values.ts';
import { EVENT_TYPES } from '../../events/catalog.ts';
import { findPatternProblem } from '../../events/patterns.ts';
import type { Services } from '../../services.ts';
import type { EndpointRow } from '../../webhooks/endpoints.ts';
import { checkEndpointUrl, MAX_ENDPOINT_URL_LENGTH } from '../../webhooks/url-policy.ts';

const NullableTimestamp = (description: string) =>
  Type.Union([Timestamp(description), Type.Null()], { description });

/** The webhook endpoint record: exactly the fields of the contract's table, nothing else. */
export const WebhookEndpoint = Type.Object(
  {
    id: Id('Endpoint id.'),
    url: Type.String({ description: 'Receiver address (normalized).' }),
    description: Type.String({ description: 'Free text label.' }),
    events: Type.Array(Type.String(), {
      description: 'Event patterns: exact types, groups such as invoice.*, or *.',
    }),
    secret_hint: Type.String({ description: 'Short hint of the signing secret, e.g. whsec_…abcd.' }),
    secret_version: Type.Integer({ minimum: 1, description: 'Starts at 1; +1 on every rotation.' }),
    active: Type.Boolean({ description: 'Whether deliveries are made.' }),
    failure_count: Type.Integer({ minimum: 0, description: 'Consecutive failed attempts.' }),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the endpoint was turned off, or null.',
    }),
    disabled_at: NullableTimestamp('When the endpoint was turned off, or null.'),
    last_delivery_at: NullableTimestamp('Time of the last delivery attempt, or null.'),
    last_success_at: NullableTimestamp('Time of the last successful attempt, or null.'),
    created_by: Type.String({ description: 'Creating actor, e.g. member:<id>.' }),
    archived_at: NullableTimestamp('When the endpoint was archived, or null.'),
    revision: Type.Integer({
      minimum: 1,
      description:
        'Revision: 1 at creation, +1 on every change (also rotation, enabling and automatic turn-off; not on delivery counters); send it as expectedRevision.',
    }),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('archived')], {
      description: '`active` for a live endpoint; `disabled` after automatic turn-off; `archived`.',
    }),
  },
  { title: 'WebhookEndpoint', additionalProperties: false },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** create and rotateSecret only: the secret is shown once, beside the record. */
export const EndpointWithSecret = Type.Object(
  {
    endpoint: WebhookEndpoint,
    secret: Type.String({ description: 'The signing secret (whsec_...). Shown only now; store it safely.' }),
  },
  { title: 'WebhookEndpointWithSecret', additionalProperties: false },
);

function asStatus(value: string): WebhookEndpoint['status'] {
  if (value === 'active' || value === 'disabled' || value === 'archived') return value;
  throw new Error(`unknown webhook endpoint status ${value}`);
}

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: asJson<string[]>(row.events),
    secret_hint: row.secret_hint,
    secret_version: row.secret_version,
    active: asBool(row.active),
    failure_count: row.failure_count,
    disabled_reason: row.disabled_reason,
    disabled_at: asIsoOrNull(row.disabled_at),
    last_delivery_at: asIsoOrNull(row.last_delivery_at),
    last_success_at: asIsoOrNull(row.last_success_at),
    created_by: row.created_by,
    archived_at: asIsoOrNull(row.archived_at),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
    status: asStatus(row.status),
  };
}

/** Input schemas and checks shared by create and update. */

export const MAX_PATTERNS = 50;

export const UrlInput = Type.String({
  minLength: 1,
  maxLength: MAX_ENDPOINT_URL_LENGTH,
  description:
    'Receiver address: https, port 443 or 8443, public host; http://localhost only where the operator allows it.',
});

export const DescriptionInput = Type.String({
  maxLength: 500,
  description: 'Free text label, up to 500 characters.',
});

export const EventsInput = Type.Array(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'An event type, a group such as invoice.*, or *.',
  }),
  {
    minItems: 1,
    maxItems: MAX_PATTERNS,
    uniqueItems: true,
    description: `1-${MAX_PATTERNS} distinct patterns: exact types (invoice.paid), groups (invoice.* matches every type under invoice., at any depth) or *.`,
  },
);

/** The normalized URL to store (WHATWG serialization), or 400 `webhook_url_not_allowed`. */
export function checkUrl(services: Services, raw: string): string {
  const { allowLocalhostHttp, localhostPorts } = services.config.webhooks;
  const verdict = checkEndpointUrl(raw, { allowLocalhostHttp, localhostPorts });
  if (!verdict.ok) {
    throw new AppError('webhook_url_not_allowed', verdict.message, {
      field: 'url',
      details: { reason: verdict.code },
    });
  }
  return verdict.url.href;
}

/** Every pattern must match at least one catalog type; a typo is refused, not stored. */
export function checkPatterns(patterns: readonly string[]): void {
  const problem = findPatternProblem(
    patterns,
    EVENT_TYPES.map((definition) => definition.type),
  );
  if (!problem) return;
  const field = `events.${problem.index}`;
  if (problem.reason === 'syntax') throw new AppError('invalid_input', problem.message, { field });
  throw new AppError('unknown_event_type', problem.message, { field, details: { pattern: problem.pattern } });
}
