import { Type } from 'typebox';
import { revokeKey } from '../../admin/api-keys.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { ApiKey, toApiKey } from './schema.ts';

export const revokeOrganizationApiKey = defineOperation({
  name: 'admin.apiKeys.revoke',
  summary: 'Revoke an API key',
  description:
    'Final: the key is refused from the next request on. Any admin may revoke any key of the organization, the one making the request included. An already revoked key is 409 invalid_state.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('Key id (from admin.apiKeys.list).'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: ApiKey,
  example: { id: '01920000-0000-7000-8000-000000000001', expectedRevision: 1 },
  async run({ ctx, input }) {
    return toApiKey(await revokeKey(ctx, input.id, input.expectedRevision), ctx.clock.now());
  },
});
