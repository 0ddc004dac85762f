import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Card } from './schema.ts';
import { requireCard, toCard } from './store.ts';

export const getCard = defineOperation({
  name: 'cards.get',
  summary: 'Get a payment card',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Card id.') }, { additionalProperties: false }),
  output: Card,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    return toCard(await requireCard(ctx.db, ctx.organizationId, input.id));
  },
});
