import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { loadForChange } from '../../unit/revision.ts';
import { generateSecret, loadSealingKeys, sealSecret, secretHint } from '../../webhooks/endpoint-secrets.ts';
import { allowStatus, changeEndpoint, requireEndpoint } from '../../webhooks/endpoints.ts';
import { defineOperation } from '../define.ts';
import { EndpointWithSecret, toEndpoint } from './schema.ts';

export const rotateEndpointSecret = defineOperation({
  name: 'webhooks.endpoints.rotateSecret',
  summary: 'Replace the signing secret of a webhook endpoint',
  description:
    'Cannot be undone. The new secret is returned once and signs every later delivery attempt, retries of older events included. For the rotation overlap (ACCOUNTING_WEBHOOK_SECRET_OVERLAP, default 24 h) each delivery carries a second `v1=` signature made with the previous secret, so receivers can switch without losing deliveries; afterwards the old secret signs nothing. secret_version increases by 1.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true, sealedReplay: true },
  mcpTool: 'accounting_webhooks_endpoints_rotate_secret',
  input: Type.Object(
    {
      id: Id('Endpoint id.'),
      expectedRevision: Revision(),
      // Required in the body (contract): unlike other mutations, the header alone is not enough.
      idempotencyKey: IdempotencyKey(200),
    },
    { additionalProperties: false },
  ),
  output: EndpointWithSecret,
  example: {
    id: '01920000-0000-7000-8000-000000000001',
    expectedRevision: 1,
    idempotencyKey: 'rotate-2026-09-22-0001',
  },
  async run({ ctx, input }) {
    const row = await loadForChange(
      requireEndpoint(ctx.db, ctx.organizationId, input.id),
      input.expectedRevision,
      allowStatus(['active', 'disabled'], 'given a new secret'),
    );
    const secret = generateSecret();
    const keys = await loadSealingKeys(ctx.db, ctx.services.config.webhooks.secretKey);
    const overlapMs = ctx.services.config.webhooks.secretOverlapMs;
    const updated = await changeEndpoint(ctx, row, {
      secret: sealSecret(keys, secret, { organizationId: ctx.organizationId, endpointId: row.id }),
      // Sealed for the same organization and endpoint, so the stored value moves over as it is.
      previous_secret: overlapMs > 0 ? row.secret : null,
      previous_secret_until:
        overlapMs > 0 ? new Date(ctx.clock.now().getTime() + overlapMs).toISOString() : null,
      secret_hint: secretHint(secret),
      secret_version: row.secret_version + 1,
    });
    await ctx.emit({
      type: 'webhook.endpoint.secret_rotated',
      subject: { type: 'webhook_endpoint', id: row.id },
      data: { url: row.url, secretVersion: updated.secret_version },
    });
    return { endpoint: toEndpoint(updated), secret };
  },
});
