import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Account } from './schema.ts';
import { requireAccount, toAccount } from './store.ts';

export const getAccount = defineOperation({
  name: 'accounts.get',
  summary: 'Get a money account',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Account id.') }, { additionalProperties: false }),
  output: Account,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    return toAccount(await requireAccount(ctx.db, ctx.organizationId, input.id));
  },
});
