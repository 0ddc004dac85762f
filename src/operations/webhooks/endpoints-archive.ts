import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { dbBool } from '../../db/values.ts';
import { loadForChange } from '../../unit/revision.ts';
import { cancelPendingDeliveries } from '../../webhooks/delivery/queue/cancel.ts';
import { allowStatus, changeEndpoint, requireEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';
import { toEndpoint, WebhookEndpoint } from './schema.ts';

export const archiveEndpoint = defineOperation({
  name: 'webhooks.endpoints.archive',
  summary: 'Archive a webhook endpoint',
  description:
    'Destructive and final: deliveries stop at once (pending ones are cancelled), the endpoint receives no new events and can no longer be changed, tested or re-enabled. It stays readable with webhooks.endpoints.get and in lists with includeArchived.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true, auditOnlyOnChange: true },
  input: Type.Object(
    {
      id: Id('Endpoint id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: WebhookEndpoint,
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await loadForChange(
      requireEndpoint(ctx.db, ctx.organizationId, input.id),
      input.expectedRevision,
      allowStatus(['active', 'disabled'], 'archived'),
    );
    const now = ctx.clock.now().toISOString();
    const updated = await changeEndpoint(ctx, row, {
      status: 'archived',
      active: dbBool(false),
      archived_at: now,
    });
    const cancelled = await cancelPendingDeliveries(ctx, row.id, 'endpoint archived');
    await ctx.emit({
      type: 'webhook.endpoint.archived',
      subject: { type: 'webhook_endpoint', id: row.id },
      data: { url: row.url, cancelledDeliveries: cancelled },
    });
    return toEndpoint(updated);
  },
});
