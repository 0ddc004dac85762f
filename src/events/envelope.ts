import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import { Id } from '../contract/formats.ts';
import type { EventsTable } from '../db/tables/core.ts';
import { asJson } from '../db/values.ts';

/**
 * The contract's "Webhook event envelope": the JSON body of every delivery, and what
 * webhooks.events.list / get return, so a receiver and an API reader see the same object.
 */
export const EventEnvelope = Type.Object(
  {
    id: Id('Event id; identical on every retry.'),
    type: Type.String({ description: 'Event type, e.g. invoice.paid.' }),
    created: Type.Integer({ description: 'Unix seconds.' }),
    organizationId: Id('Organization in which it happened.'),
    subject: Type.Union(
      [
        Type.Object(
          {
            type: Type.String({
              description:
                'Kind of record concerned, fixed per event type: e.g. invoice, contractor, invitation, webhook_endpoint (docs/events.md).',
            }),
            id: Type.String({ description: 'Id of the record concerned.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The record concerned, or null.' },
    ),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'Details for the event type.' }),
  },
  { title: 'EventEnvelope', additionalProperties: false },
);
export type EventEnvelope = Static<typeof EventEnvelope>;

export type EventRow = Pick<
  Selectable<EventsTable>,
  'id' | 'type' | 'organization_id' | 'subject_type' | 'subject_id' | 'data' | 'created_at'
>;

export function toEnvelope(row: EventRow): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    created: Math.floor(new Date(row.created_at).getTime() / 1000),
    organizationId: row.organization_id,
    subject:
      row.subject_type !== null && row.subject_id !== null
        ? { type: row.subject_type, id: row.subject_id }
        : null,
    data: asJson<Record<string, unknown>>(row.data),
  };
}
