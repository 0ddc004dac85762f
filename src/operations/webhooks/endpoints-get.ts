import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { requireEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';
import { toEndpoint, WebhookEndpoint } from './schema.ts';

export const getEndpoint = defineOperation({
  name: 'webhooks.endpoints.get',
  summary: 'Get a webhook endpoint',
  description: 'Archived endpoints are returned too. The signing secret is never returned here.',
  // Webhook configuration is an administrator matter (contract: administrators add endpoints).
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object({ id: Id('Endpoint id.') }, { additionalProperties: false }),
  output: WebhookEndpoint,
  example: { id: '01920000-0000-7000-8000-000000000001' },
  async run({ ctx, input }) {
    return toEndpoint(await requireEndpoint(ctx.db, ctx.organizationId, input.id));
  },
});
