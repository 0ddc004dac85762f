import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Transaction } from './schema.ts';
import { requireTransaction, toTransaction } from './store.ts';

export const getTransaction = defineOperation({
  name: 'transactions.get',
  summary: 'Get a bank or card transaction',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Transaction id.') }, { additionalProperties: false }),
  output: Transaction,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    return toTransaction(await requireTransaction(ctx.db, ctx.organizationId, input.id));
  },
});
