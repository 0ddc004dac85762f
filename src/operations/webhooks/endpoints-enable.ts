import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { enableEndpoint } from '../../webhooks/endpoint-lifecycle.ts';
import { defineOperation } from '../define.ts';
import { toEndpoint, WebhookEndpoint } from './schema.ts';

/**
 * Dashboard only (contract: "administrator turns it on in the dashboard"): API keys, OAuth tokens
 * and MCP are refused with 403 `dashboard_only` before anything else. Until the dashboard exists,
 * operators use `accounting webhooks enable --org ID --endpoint ID` (same domain function).
 */
export const enableWebhookEndpoint = defineOperation({
  name: 'webhooks.endpoints.enable',
  summary: 'Turn a disabled webhook endpoint back on (dashboard only)',
  description:
    'Only for an endpoint turned off automatically; resets failure_count to 0. Failed deliveries are not resent by this; retry them from the delivery log. Available only from the dashboard.',
  access: {
    scopes: ['accounting:read', 'accounting:write', 'accounting:admin'],
    roles: 'dashboard',
    dashboardRoles: ['admin'],
  },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Endpoint id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: WebhookEndpoint,
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 3 },
  async run({ ctx, input }) {
    return toEndpoint(await enableEndpoint(ctx, input));
  },
});
