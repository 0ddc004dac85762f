import { Type } from 'typebox';
import { IdempotencyKey } from '../../contract/formats.ts';
import { dbBool, dbJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import { generateSecret, loadSealingKeys, sealSecret, secretHint } from '../../webhooks/endpoint-secrets.ts';
import { defineOperation } from '../define.ts';
import {
  checkPatterns,
  checkUrl,
  DescriptionInput,
  EndpointWithSecret,
  EventsInput,
  toEndpoint,
  UrlInput,
} from './schema.ts';

export const createEndpoint = defineOperation({
  name: 'webhooks.endpoints.create',
  summary: 'Add a webhook endpoint',
  description:
    'Administrators add endpoints. Returns the endpoint and its signing secret; the secret is shown only here (and by an idempotent replay of this request). The url must be https on port 443 or 8443 to a public address; private and local addresses are refused, except http://localhost where the operator allows it.',
  // The contract does not show scopes; like rotateSecret, changing webhook configuration needs all three.
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none', sealedReplay: true },
  input: Type.Object(
    {
      url: UrlInput,
      description: Type.Optional(DescriptionInput),
      events: EventsInput,
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: EndpointWithSecret,
  example: {
    url: 'https://hooks.example.com/accounting',
    description: 'ERP sync',
    events: ['invoice.paid', 'contractor.*'],
  },
  async run({ ctx, input }) {
    const url = checkUrl(ctx.services, input.url);
    checkPatterns(input.events);
    const id = newId();
    const secret = generateSecret();
    const keys = await loadSealingKeys(ctx.db, ctx.services.config.webhooks.secretKey);
    const now = ctx.clock.now().toISOString();
    const row = {
      id,
      organization_id: ctx.organizationId,
      url,
      description: input.description ?? '',
      events: dbJson(input.events),
      secret: sealSecret(keys, secret, { organizationId: ctx.organizationId, endpointId: id }),
      secret_hint: secretHint(secret),
      secret_version: 1,
      active: dbBool(true),
      status: 'active',
      failure_count: 0,
      disabled_reason: null,
      disabled_at: null,
      last_delivery_at: null,
      last_success_at: null,
      created_by: `member:${ctx.principal.memberId}`,
      archived_at: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    await ctx.db.insertInto('webhook_endpoints').values(row).execute();
    await ctx.audit({ recordType: 'webhook_endpoint', recordId: id, beforeRevision: null, afterRevision: 1 });
    // Emitted after the insert: an endpoint subscribed to webhook.* (or *) receives its own creation.
    await ctx.emit({
      type: 'webhook.endpoint.created',
      subject: { type: 'webhook_endpoint', id },
      data: { url, description: row.description, events: input.events },
    });
    return { endpoint: toEndpoint({ ...row, events: input.events }), secret };
  },
});
