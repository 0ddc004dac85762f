import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

// Data never carries the signing secret (only its version): events are delivered to receivers
// and listed through the API.
const Url = Type.String({ description: 'The endpoint URL.' });
const Patterns = Type.Array(Type.String(), { description: 'The endpoint event patterns.' });

export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const webhookEvents: readonly EventDefinition[] = [
  {
    type: 'webhook.endpoint.created',
    subjectType: 'webhook_endpoint',
    description: 'A webhook endpoint was added.',
    data: Type.Object(
      { url: Url, description: Type.String(), events: Patterns },
      { additionalProperties: false },
    ),
  },
  {
    type: 'webhook.endpoint.updated',
    subjectType: 'webhook_endpoint',
    description: 'A webhook endpoint URL, description or event patterns changed.',
    data: Type.Object(
      {
        url: Url,
        description: Type.String(),
        events: Patterns,
        changed: Type.Array(Type.String(), { description: 'Names of the fields that changed.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'webhook.endpoint.archived',
    subjectType: 'webhook_endpoint',
    description: 'A webhook endpoint was archived; its pending deliveries were cancelled.',
    data: Type.Object(
      { url: Url, cancelledDeliveries: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
  },
  {
    type: 'webhook.endpoint.secret_rotated',
    subjectType: 'webhook_endpoint',
    description: 'The signing secret of an endpoint was replaced (the secret itself is never in an event).',
    data: Type.Object(
      { url: Url, secretVersion: Type.Integer({ minimum: 2 }) },
      { additionalProperties: false },
    ),
  },
  {
    type: 'webhook.endpoint.disabled',
    subjectType: 'webhook_endpoint',
    description:
      'An endpoint was turned off automatically: `reason` is `consecutive_failures` (20 failed attempts in a row, no success in the last day) or `gone` (it answered 410 Gone).',
    data: Type.Object(
      {
        url: Url,
        reason: Type.String({
          description: 'Why it was turned off, same as disabled_reason: `consecutive_failures` or `gone`.',
        }),
        failureCount: Type.Integer({ minimum: 0, description: 'Consecutive failed attempts.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'webhook.endpoint.enabled',
    subjectType: 'webhook_endpoint',
    description: 'An administrator turned a disabled endpoint back on.',
    data: Type.Object({ url: Url }, { additionalProperties: false }),
  },
  {
    type: WEBHOOK_TEST_EVENT,
    subjectType: 'webhook_endpoint',
    description:
      'Sent by webhooks.endpoints.test to that one endpoint only; never fanned out, whatever the patterns.',
    data: Type.Object(
      { message: Type.String({ description: 'A fixed explanatory text.' }) },
      { additionalProperties: false },
    ),
  },
];
