import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { asJson, dbJson } from '../../db/values.ts';
import { loadForChange } from '../../unit/revision.ts';
import { allowStatus, changeEndpoint, requireEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';
import {
  checkPatterns,
  checkUrl,
  DescriptionInput,
  EventsInput,
  toEndpoint,
  UrlInput,
  WebhookEndpoint,
} from './schema.ts';

export const updateEndpoint = defineOperation({
  name: 'webhooks.endpoints.update',
  summary: 'Change the url, description or event patterns of a webhook endpoint',
  description:
    'Revision-checked. Fields left out keep their value; a request that changes nothing returns the endpoint unchanged (same revision). Archived endpoints cannot be changed. New patterns apply to events recorded after the change.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', auditOnlyOnChange: true },
  input: Type.Object(
    {
      id: Id('Endpoint id.'),
      expectedRevision: Revision(),
      url: Type.Optional(UrlInput),
      description: Type.Optional(DescriptionInput),
      events: Type.Optional(EventsInput),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: WebhookEndpoint,
  example: {
    id: '01920000-0000-7000-8000-000000000001',
    expectedRevision: 1,
    events: ['invoice.*'],
  },
  async run({ ctx, input }) {
    // Input checks first: a bad request is refused the same way whatever the record's state.
    const url = input.url === undefined ? undefined : checkUrl(ctx.services, input.url);
    if (input.events !== undefined) checkPatterns(input.events);
    const row = await loadForChange(
      requireEndpoint(ctx.db, ctx.organizationId, input.id),
      input.expectedRevision,
      allowStatus(['active', 'disabled'], 'changed'),
    );
    const currentEvents = asJson<string[]>(row.events);
    const next = {
      url: url ?? row.url,
      description: input.description ?? row.description,
      events: input.events ?? currentEvents,
    };
    const changed = [
      ...(next.url !== row.url ? ['url'] : []),
      ...(next.description !== row.description ? ['description'] : []),
      ...(JSON.stringify(next.events) !== JSON.stringify(currentEvents) ? ['events'] : []),
    ];
    if (changed.length === 0) return toEndpoint(row);
    const updated = await changeEndpoint(ctx, row, {
      url: next.url,
      description: next.description,
      events: dbJson(next.events),
    });
    await ctx.emit({
      type: 'webhook.endpoint.updated',
      subject: { type: 'webhook_endpoint', id: row.id },
      data: { ...next, changed },
    });
    return toEndpoint(updated);
  },
});
