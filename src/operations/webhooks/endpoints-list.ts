import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { toEndpoint, WebhookEndpoint } from './schema.ts';

export const listEndpoints = defineOperation({
  name: 'webhooks.endpoints.list',
  summary: 'List webhook endpoints, newest first',
  description: 'Offset pagination. Archived endpoints are left out unless includeArchived is true.',
  access: { scopes: ['accounting:read'], roles: ['admin'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      includeArchived: Type.Optional(
        Type.Boolean({ description: 'Also list archived endpoints (default false).' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(WebhookEndpoint, 'The page of webhook endpoints, newest first (by creation).'),
  example: { limit: 30, offset: 0 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId);
    if (!input.includeArchived) query = query.where('status', '!=', 'archived');
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toEndpoint), limit, offset);
  },
});
