import { Type } from 'typebox';
import { createKeyForMember } from '../../admin/api-keys.ts';
import { IdempotencyKey, SingleLineText, Timestamp } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { ApiKeyWithSecret, ScopeValue, toApiKey } from './schema.ts';

export const createOrganizationApiKey = defineOperation({
  name: 'admin.apiKeys.create',
  summary: 'Create an API key',
  description:
    'The key acts as the calling member and may carry only scopes the calling credential holds (403 scope_not_held otherwise). The key itself is returned only here (and by an idempotent replay of this request, which is stored sealed). After expiresAt it is refused on every request.',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none', sealedReplay: true },
  // A key in clear should not pass through a model's context; agents keep the key they were given.
  mcpTool: false,
  input: Type.Object(
    {
      scopes: Type.Array(ScopeValue, {
        minItems: 1,
        maxItems: 5,
        uniqueItems: true,
        description: 'Scopes of the new key (1-5, no repeats); each must be held by the calling credential.',
      }),
      name: Type.Optional(SingleLineText(1, 200, 'Label, 1-200 characters on one line.')),
      expiresAt: Type.Optional(
        Timestamp('When the key stops working (ISO 8601, in the future); omit for never.'),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: ApiKeyWithSecret,
  example: { scopes: ['accounting:read'], name: 'reporting', expiresAt: '2027-01-01T00:00:00.000Z' },
  async run({ ctx, input }) {
    const { row, token } = await createKeyForMember(ctx, {
      memberId: ctx.principal.memberId,
      heldScopes: ctx.principal.scopes,
      scopes: input.scopes,
      name: input.name,
      expiresAt: input.expiresAt,
    });
    return { key: toApiKey(row, ctx.clock.now()), secret: token };
  },
});
